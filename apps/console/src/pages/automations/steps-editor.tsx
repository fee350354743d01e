// The steps of an automation, in order: add, remove and reorder them, each kind with its own fields
// (wait: 1 second to 30 days; send_email: a template; http_request: a public https address).
import { Link } from 'wouter';
import { Field, Select } from '../../ui/controls';
import { newStep, STEP_KIND_NAMES, StepDraft, StepKind, WAIT_UNITS, WaitUnit } from './draft';

interface StepChoices {
  templates: readonly { id: string; name: string }[];
}

function WaitFields({ step, set }: { step: StepDraft; set: (change: Partial<StepDraft>) => void }) {
  return (
    <div className="filters">
      <Field
        label="Wait for"
        type="number"
        min={1}
        step={1}
        required
        value={step.amount}
        onChange={(e) => set({ amount: e.target.value })}
      />
      <Select label="Unit" value={step.unit} onChange={(e) => set({ unit: e.target.value as WaitUnit })}>
        {WAIT_UNITS.map(([unit]) => (
          <option key={unit}>{unit}</option>
        ))}
      </Select>
    </div>
  );
}

function TemplateField({
  step,
  choices,
  set,
}: {
  step: StepDraft;
  choices: StepChoices;
  set: (change: Partial<StepDraft>) => void;
}) {
  const known = choices.templates.some((t) => t.name === step.template || t.id === step.template);
  return (
    <>
      <Select label="Template" value={step.template} required onChange={(e) => set({ template: e.target.value })}>
        <option value="">Choose a template</option>
        {known || !step.template ? null : <option>{step.template}</option>}
        {choices.templates.map((t) => (
          <option key={t.id} value={t.name}>
            {t.name}
          </option>
        ))}
      </Select>
      {choices.templates.length ? null : (
        <p className="hint">
          No templates yet: <Link href="/templates">create one on Templates</Link>.
        </p>
      )}
    </>
  );
}

function StepFields({
  step,
  choices,
  set,
}: {
  step: StepDraft;
  choices: StepChoices;
  set: (change: Partial<StepDraft>) => void;
}) {
  if (step.kind === 'wait') return <WaitFields step={step} set={set} />;
  if (step.kind === 'send_email') return <TemplateField step={step} choices={choices} set={set} />;
  return (
    <Field
      label="URL"
      type="url"
      required
      placeholder="https://hooks.example.com/start"
      hint="A public https address; the post is signed with the workspace's step secret."
      value={step.url}
      onChange={(e) => set({ url: e.target.value })}
    />
  );
}

interface StepsEditorProps {
  steps: StepDraft[];
  choices: StepChoices;
  onChange: (steps: StepDraft[]) => void;
}

function StepItem({ steps, index, choices, onChange }: StepsEditorProps & { index: number }) {
  const step = steps[index];
  const set = (change: Partial<StepDraft>) => onChange(steps.map((s, i) => (i === index ? { ...s, ...change } : s)));
  const move = (by: number) => {
    const next = [...steps];
    [next[index], next[index + by]] = [next[index + by], next[index]];
    onChange(next);
  };
  return (
    <li>
      <fieldset className="step">
        <legend>
          Step {index + 1}: {STEP_KIND_NAMES[step.kind]}
        </legend>
        <StepFields step={step} choices={choices} set={set} />
        <div className="actions">
          <button type="button" className="secondary" disabled={index === 0} onClick={() => move(-1)}>
            Move up
          </button>
          <button type="button" className="secondary" disabled={index === steps.length - 1} onClick={() => move(1)}>
            Move down
          </button>
          <button type="button" className="secondary" onClick={() => onChange(steps.filter((_, i) => i !== index))}>
            Remove
          </button>
        </div>
      </fieldset>
    </li>
  );
}

export function StepsEditor({ steps, choices, onChange }: StepsEditorProps) {
  const add = (kind: StepKind) => onChange([...steps, newStep(kind)]);
  return (
    <fieldset className="steps">
      <legend>Steps</legend>
      {steps.length === 0 ? <p className="hint">No steps yet: add them below, in the order they run.</p> : null}
      <ol className="steps">
        {steps.map((step, index) => (
          <StepItem key={step.key} steps={steps} index={index} choices={choices} onChange={onChange} />
        ))}
      </ol>
      <div className="actions">
        <button type="button" className="secondary" onClick={() => add('wait')}>
          Add a wait
        </button>
        <button type="button" className="secondary" onClick={() => add('send_email')}>
          Add an email
        </button>
        <button type="button" className="secondary" onClick={() => add('http_request')}>
          Add an HTTP request
        </button>
      </div>
    </fieldset>
  );
}
