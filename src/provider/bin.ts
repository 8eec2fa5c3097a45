#!/usr/bin/env node
/**
 * The provider executable terraform starts (through a wrapper that execs node on it).
 * Phase 1 serves the provider configuration schema only; resources plug in here.
 */
import { PROVIDER_SCHEMA, PROVIDER_TYPE } from '../schema';
import { serveProvider } from './main';

serveProvider({
  typeName: PROVIDER_TYPE,
  schema: PROVIDER_SCHEMA.provider,
  resources: [],
  dataSources: [],
});
