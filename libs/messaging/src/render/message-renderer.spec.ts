import { Gauge, Registry } from 'prom-client';
import { MetricsRegistry, Refusal } from '@app/platform';
import { renderMessage, RenderContext, validateTemplate } from '../domain/template';
import { MessageRenderer } from './message-renderer';

const registry = new Registry();
const metrics = {
  registry,
  gauge: (configuration: object) => new Gauge({ ...configuration, registers: [registry] } as never),
} as unknown as MetricsRegistry;
const ada: RenderContext = {
  person: { id: 'per_1', name: 'Ada <Lovelace>', email: 'ada@example.com', fields: { plan: 'pro' } },
  properties: { coupon: 'X1' },
};

describe('MessageRenderer: templates rendered in a render thread, as on the event loop', () => {
  const renderer = new MessageRenderer(metrics);
  afterAll(() => renderer.onApplicationShutdown());

  it('renders the same subject, HTML and text as renderMessage', async () => {
    const message = {
      subject: 'Hi {{ person.first_name }}',
      body: '# {{ person.name }}\n\nPlan **{{ person.fields.plan }}**, code {{ properties.coupon }}',
    };
    expect(await renderer.render('ws_1', message, ada)).toEqual(await renderMessage(message, ada));
  });

  it('refuses a Liquid error with the same Refusal, code and sentence', async () => {
    const message = { subject: 'Hi', body: '{{ person.name | shout }}' };
    const expected = await renderMessage(message, ada).catch((error: Refusal) => error);
    const refused = await renderer.render('ws_1', message, ada).catch((error: Refusal) => error);
    expect(refused).toBeInstanceOf(Refusal);
    expect(refused).toMatchObject({ code: (expected as Refusal).code, message: (expected as Refusal).message });
  });

  it('validates as validateTemplate does: nothing for a good template, its refusal for a bad one', async () => {
    await expect(renderer.validate('ws_1', 'Hi {{ person.name }}', 'ok')).resolves.toBeUndefined();
    await expect(renderer.validate('ws_1', 'Hi {{ person.name', 'ok')).rejects.toEqual(
      validateTemplate('Hi {{ person.name', 'ok'),
    );
  });

  it('counts its work at /metrics', async () => {
    expect(await registry.getSingleMetricAsString('lifeline_render_tasks')).toMatch(
      /lifeline_render_tasks\{state="waiting"\} 0/,
    );
  });
});
