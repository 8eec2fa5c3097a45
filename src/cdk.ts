/**
 * The CDK library the constructs and the generated bindings build on: CDK Terrain (`cdktn`)
 * or cdktf 0.21, whichever the app uses. Every module of this package takes the CDK from
 * here, never from 'cdktf' directly.
 *
 * It must be the app's own copy: both libraries mark their elements with the same
 * `Symbol.for` keys, so a cdktf resource inside a cdktn stack passes cdktn's checks and then
 * fails its synth (`_resetResolveDiscoveredProviderFeatureUsage is not a function`). Types
 * come from cdktf (a development dependency); cdktn 0.24's API is a superset of it.
 */
import * as path from 'node:path';
import type * as Cdktf from 'cdktf';
import { chooseCdk, resolveFrom, type CdkChoice } from './cdk-choice';

function appDirs(): string[] {
  const main = require.main?.filename ?? process.argv[1];
  const dirs = main ? [path.dirname(path.resolve(main))] : [];
  return [...dirs, process.cwd()];
}

export const cdkChoice: CdkChoice = chooseCdk({
  env: process.env,
  appDirs: appDirs(),
  loaded: Object.keys(require.cache ?? {}),
  resolve: resolveFrom,
});

const cdk = require(cdkChoice.entry) as typeof Cdktf;

// Types of every name; values of those the constructs and the bindings generator use.
export type * from 'cdktf';
export const {
  App,
  Aspects,
  TerraformStack,
  TerraformElement,
  TerraformResource,
  TerraformDataSource,
  TerraformProvider,
  ImportableResource,
  Token,
  Tokenization,
  Lazy,
  Fn,
  ComplexList,
  ComplexObject,
  ComplexMap,
  canInspect,
  isComplexElement,
  stringToTerraform,
  stringToHclTerraform,
  numberToTerraform,
  numberToHclTerraform,
  booleanToTerraform,
  booleanToHclTerraform,
  anyToTerraform,
  anyToHclTerraform,
  listMapper,
  listMapperHcl,
  hashMapper,
  hashMapperHcl,
} = cdk;
export type App = Cdktf.App;
export type Aspects = Cdktf.Aspects;
export type TerraformStack = Cdktf.TerraformStack;
export type TerraformElement = Cdktf.TerraformElement;
export type TerraformResource = Cdktf.TerraformResource;
export type TerraformDataSource = Cdktf.TerraformDataSource;
export type TerraformProvider = Cdktf.TerraformProvider;
export type ImportableResource = Cdktf.ImportableResource;
export type Token = Cdktf.Token;
export type Tokenization = Cdktf.Tokenization;
export type Lazy = Cdktf.Lazy;
export type Fn = Cdktf.Fn;
export type ComplexList = Cdktf.ComplexList;
export type ComplexObject = Cdktf.ComplexObject;
export type ComplexMap = Cdktf.ComplexMap;
