import { DELIVER } from './delivery.job';

describe('the deliver payload', () => {
  it('reads what the release before versions queued (no v) as version 1, with or without a slot', () => {
    expect(DELIVER.read({ data: { workspaceId: 'ws_1', deliveryId: 'dlv_1' } })).toEqual({
      workspaceId: 'ws_1',
      deliveryId: 'dlv_1',
    });
    expect(DELIVER.read({ data: { workspaceId: 'ws_1', deliveryId: 'dlv_1', slotAt: 1_700_000_000_000 } })).toEqual({
      workspaceId: 'ws_1',
      deliveryId: 'dlv_1',
      slotAt: 1_700_000_000_000,
    });
  });

  it('reads back what its producers queue', () => {
    const data = { workspaceId: 'ws_1', deliveryId: 'dlv_1', slotAt: 5 };
    expect(DELIVER.payload(data)).toEqual({ ...data, v: 1 });
    expect(DELIVER.read({ data: DELIVER.payload(data) })).toEqual(data);
  });

  it('refuses a slot that is not a time', () => {
    expect(() => DELIVER.read({ data: { workspaceId: 'ws_1', deliveryId: 'dlv_1', slotAt: 'soon' } })).toThrow(
      'slotAt: Invalid input: expected number, received string',
    );
  });
});
