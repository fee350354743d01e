// Lifecycle stages (docs/rest.md#events): the API spells them in lower case (downloader,
// purchaser...); people read them in the specification's spelling (Downloader, Purchaser...).
export const STAGES: [value: string, name: string][] = [
  ['downloader', 'Downloader'],
  ['activated', 'Activated'],
  ['account', 'Account'],
  ['trial', 'Trial'],
  ['purchaser', 'Purchaser'],
  ['repeat', 'Repeat'],
  ['churned', 'Churned'],
];

const NAMES = new Map(STAGES);

/** The specification's name of a stage the API answers; a stage it does not know, as answered. */
export function stageName(stage: string | null | undefined): string {
  if (!stage) return 'None yet';
  return NAMES.get(stage) ?? stage;
}
