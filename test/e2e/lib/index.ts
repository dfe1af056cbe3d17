/** The end-to-end library: a real n8n with the packed package, the sandbox, and clients for both. */
export * from './credentials';
export * from './environment';
export * from '../../support/http';
export * from './installN8n';
export * from './n8n';
export * from './n8nClient';
export * from './oauth';
export * from './pack';
export * from './paths';
export * from './processes';
export * from './queueMode';
export * from './queueServices';
export * from './sandbox';
export * from './state';
export * from './workflows';
