import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** Version of the installed package (src/ and dist/ both sit one level below package.json). */
export const PACKAGE_VERSION: string = (
  JSON.parse(readFileSync(join(__dirname, '..', 'package.json'), 'utf8')) as { version: string }
).version;
