export * from './envelope.js';
export * from './errors.js';
export * from './auth.js';
export * from './health.js';
export * from './permissions.js';
export * from './plans.js';
export * from './auth-provider.js';
