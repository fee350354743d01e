// The console's navigation: path under /console and link name.
export const CONSOLE_NAVIGATION: [string, string][] = [
  ['/home', 'Home'],
  ['/people', 'People'],
  ['/segments', 'Segments'],
  ['/live', 'Live events'],
  ['/charts', 'Charts'],
  ['/webhooks', 'Webhooks'],
  ['/doors', 'Doors'],
  ['/automations', 'Automations'],
  ['/lists', 'Lists'],
  ['/templates', 'Templates'],
  ['/broadcasts', 'Broadcasts'],
  ['/settings', 'Settings'],
];
