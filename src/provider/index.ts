export * from './diagnostics';
export * from './framework';
export * from './values';
export { ProviderServer, defaultPlan } from './server';
export { serveProvider, startProvider, type ServeOptions, type RunningProvider } from './main';
export * from './handshake';
export { generateServerCertificate, type ServerCertificate } from './tls';
