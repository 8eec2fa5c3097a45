import type { AttributeSchema, BlockSchema, ProviderSchemaDoc } from './types';
import { PROVIDER_SCHEMA } from './provider-schema';

function attributeJson(a: AttributeSchema): Record<string, unknown> {
  const out: Record<string, unknown> = { type: a.type, description: a.description, description_kind: 'markdown' };
  if (a.required) out.required = true;
  if (a.optional) out.optional = true;
  if (a.computed) out.computed = true;
  if (a.sensitive) out.sensitive = true;
  return out;
}

function blockJson(b: BlockSchema): Record<string, unknown> {
  const attributes: Record<string, unknown> = {};
  for (const [name, a] of Object.entries(b.attributes)) attributes[name] = attributeJson(a);
  return { attributes, description: b.description, description_kind: 'markdown' };
}

/** The schema in the format of `terraform providers schema -json` (what the provider serves). */
export function terraformSchemaJson(doc: ProviderSchemaDoc = PROVIDER_SCHEMA): Record<string, unknown> {
  const resources: Record<string, unknown> = {};
  for (const [name, r] of Object.entries(doc.resources)) resources[name] = { version: r.version, block: blockJson(r) };
  const dataSources: Record<string, unknown> = {};
  for (const [name, d] of Object.entries(doc.dataSources)) dataSources[name] = { version: 0, block: blockJson(d) };
  return {
    format_version: '1.0',
    provider_schemas: {
      [doc.address]: {
        provider: { version: 0, block: blockJson(doc.provider) },
        resource_schemas: resources,
        data_source_schemas: dataSources,
      },
    },
  };
}
