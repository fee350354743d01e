export * from './address-rule';
export * from './retry-schedule';
export * from './secret-box';
export * from './webhook-body';
export * from './endpoint-health';
