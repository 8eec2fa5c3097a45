// https://registry.terraform.io/providers/networkcalc/networkcalc/latest/docs
// generated from terraform resource schema

import { Construct } from 'constructs';
import * as cdktf from '../../../../cdk';

// Configuration

export interface NetworkcalcProviderConfig {
  /**
  * Base URL of the API. Defaults to $NETWORKCALC_BASE_URL, then https://networkcalc.com.
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/networkcalc/networkcalc/latest/docs#base_url NetworkcalcProvider#base_url}
  */
  readonly baseUrl?: string;
  /**
  * A ready access token. Prefer token_env: a literal token is written into the configuration. Defaults to the variable named by token_env.
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/networkcalc/networkcalc/latest/docs#token NetworkcalcProvider#token}
  */
  readonly token?: string;
  /**
  * Client id exchanged with client_secret at /api/auth/token. Defaults to the variable named by client_id_env.
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/networkcalc/networkcalc/latest/docs#client_id NetworkcalcProvider#client_id}
  */
  readonly clientId?: string;
  /**
  * Client secret. Prefer client_secret_env. Defaults to the variable named by client_secret_env.
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/networkcalc/networkcalc/latest/docs#client_secret NetworkcalcProvider#client_secret}
  */
  readonly clientSecret?: string;
  /**
  * Name of the environment variable that holds the access token. Default: NETWORKCALC_TOKEN, only when the block names no credential (a block that names any reads only what it names).
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/networkcalc/networkcalc/latest/docs#token_env NetworkcalcProvider#token_env}
  */
  readonly tokenEnv?: string;
  /**
  * Name of the environment variable that holds the client id; give it with client_secret_env. Default: NETWORKCALC_CLIENT_ID, only when the block names no credential.
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/networkcalc/networkcalc/latest/docs#client_id_env NetworkcalcProvider#client_id_env}
  */
  readonly clientIdEnv?: string;
  /**
  * Name of the environment variable that holds the client secret; give it with client_id_env. Default: NETWORKCALC_CLIENT_SECRET, only when the block names no credential.
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/networkcalc/networkcalc/latest/docs#client_secret_env NetworkcalcProvider#client_secret_env}
  */
  readonly clientSecretEnv?: string;
  /**
  * Which live alerts of the account ncalc manages: "exclusive", "prefix", "additive". "exclusive" (default) owns every alert of the account, "prefix" only alerts whose names start with ownership_prefix, "additive" never deletes on apply (destroy deletes only the declared alerts). Terraform ignores it: it manages exactly the resources in its state.
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/networkcalc/networkcalc/latest/docs#ownership NetworkcalcProvider#ownership}
  */
  readonly ownership?: string;
  /**
  * Name prefix of the alerts ncalc manages when ownership is "prefix".
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/networkcalc/networkcalc/latest/docs#ownership_prefix NetworkcalcProvider#ownership_prefix}
  */
  readonly ownershipPrefix?: string;
  /**
  * Attempts per request on 429, 5xx and connection errors, including the first: a whole number from 1 to 20. Default: 5.
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/networkcalc/networkcalc/latest/docs#max_retries NetworkcalcProvider#max_retries}
  */
  readonly maxRetries?: number;
  /**
  * Time limit of one HTTP request, in seconds: more than 0 and at most 3600. Default: 30.
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/networkcalc/networkcalc/latest/docs#timeout_seconds NetworkcalcProvider#timeout_seconds}
  */
  readonly timeoutSeconds?: number;
  /**
  * Alias name
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/networkcalc/networkcalc/latest/docs#alias NetworkcalcProvider#alias}
  */
  readonly alias?: string;
}

/**
* Represents a {@link https://registry.terraform.io/providers/networkcalc/networkcalc/latest/docs networkcalc}
*/
export class NetworkcalcProvider extends cdktf.TerraformProvider {

  // =================
  // STATIC PROPERTIES
  // =================
  public static readonly tfResourceType = "networkcalc";

  // ==============
  // STATIC Methods
  // ==============
  /**
  * Generates CDKTF code for importing a NetworkcalcProvider resource upon running "cdktf plan <stack-name>"
  * @param scope The scope in which to define this construct
  * @param importToId The construct id used in the generated config for the NetworkcalcProvider to import
  * @param importFromId The id of the existing NetworkcalcProvider that should be imported. Refer to the {@link https://registry.terraform.io/providers/networkcalc/networkcalc/latest/docs#import import section} in the documentation of this resource for the id to use
  * @param provider? Optional instance of the provider where the NetworkcalcProvider to import is found
  */
  public static generateConfigForImport(scope: Construct, importToId: string, importFromId: string, provider?: cdktf.TerraformProvider) {
        return new cdktf.ImportableResource(scope, importToId, { terraformResourceType: "networkcalc", importId: importFromId, provider });
      }

  // ===========
  // INITIALIZER
  // ===========

  /**
  * Create a new {@link https://registry.terraform.io/providers/networkcalc/networkcalc/latest/docs networkcalc} Resource
  *
  * @param scope The scope in which to define this construct
  * @param id The scoped construct ID. Must be unique amongst siblings in the same scope
  * @param options NetworkcalcProviderConfig = {}
  */
  public constructor(scope: Construct, id: string, config: NetworkcalcProviderConfig = {}) {
    super(scope, id, {
      terraformResourceType: 'networkcalc',
      terraformGeneratorMetadata: {
        providerName: 'networkcalc',
        providerVersionConstraint: '~> 0.1'
      },
      terraformProviderSource: 'networkcalc/networkcalc'
    });
    this._baseUrl = config.baseUrl;
    this._token = config.token;
    this._clientId = config.clientId;
    this._clientSecret = config.clientSecret;
    this._tokenEnv = config.tokenEnv;
    this._clientIdEnv = config.clientIdEnv;
    this._clientSecretEnv = config.clientSecretEnv;
    this._ownership = config.ownership;
    this._ownershipPrefix = config.ownershipPrefix;
    this._maxRetries = config.maxRetries;
    this._timeoutSeconds = config.timeoutSeconds;
    this._alias = config.alias;
  }

  // ==========
  // ATTRIBUTES
  // ==========

  // base_url - computed: false, optional: true, required: false
  private _baseUrl?: string; 
  public get baseUrl() {
    return this._baseUrl;
  }
  public set baseUrl(value: string | undefined) {
    this._baseUrl = value;
  }
  public resetBaseUrl() {
    this._baseUrl = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get baseUrlInput() {
    return this._baseUrl;
  }

  // token - computed: false, optional: true, required: false
  private _token?: string; 
  public get token() {
    return this._token;
  }
  public set token(value: string | undefined) {
    this._token = value;
  }
  public resetToken() {
    this._token = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get tokenInput() {
    return this._token;
  }

  // client_id - computed: false, optional: true, required: false
  private _clientId?: string; 
  public get clientId() {
    return this._clientId;
  }
  public set clientId(value: string | undefined) {
    this._clientId = value;
  }
  public resetClientId() {
    this._clientId = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get clientIdInput() {
    return this._clientId;
  }

  // client_secret - computed: false, optional: true, required: false
  private _clientSecret?: string; 
  public get clientSecret() {
    return this._clientSecret;
  }
  public set clientSecret(value: string | undefined) {
    this._clientSecret = value;
  }
  public resetClientSecret() {
    this._clientSecret = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get clientSecretInput() {
    return this._clientSecret;
  }

  // token_env - computed: false, optional: true, required: false
  private _tokenEnv?: string; 
  public get tokenEnv() {
    return this._tokenEnv;
  }
  public set tokenEnv(value: string | undefined) {
    this._tokenEnv = value;
  }
  public resetTokenEnv() {
    this._tokenEnv = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get tokenEnvInput() {
    return this._tokenEnv;
  }

  // client_id_env - computed: false, optional: true, required: false
  private _clientIdEnv?: string; 
  public get clientIdEnv() {
    return this._clientIdEnv;
  }
  public set clientIdEnv(value: string | undefined) {
    this._clientIdEnv = value;
  }
  public resetClientIdEnv() {
    this._clientIdEnv = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get clientIdEnvInput() {
    return this._clientIdEnv;
  }

  // client_secret_env - computed: false, optional: true, required: false
  private _clientSecretEnv?: string; 
  public get clientSecretEnv() {
    return this._clientSecretEnv;
  }
  public set clientSecretEnv(value: string | undefined) {
    this._clientSecretEnv = value;
  }
  public resetClientSecretEnv() {
    this._clientSecretEnv = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get clientSecretEnvInput() {
    return this._clientSecretEnv;
  }

  // ownership - computed: false, optional: true, required: false
  private _ownership?: string; 
  public get ownership() {
    return this._ownership;
  }
  public set ownership(value: string | undefined) {
    this._ownership = value;
  }
  public resetOwnership() {
    this._ownership = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get ownershipInput() {
    return this._ownership;
  }

  // ownership_prefix - computed: false, optional: true, required: false
  private _ownershipPrefix?: string; 
  public get ownershipPrefix() {
    return this._ownershipPrefix;
  }
  public set ownershipPrefix(value: string | undefined) {
    this._ownershipPrefix = value;
  }
  public resetOwnershipPrefix() {
    this._ownershipPrefix = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get ownershipPrefixInput() {
    return this._ownershipPrefix;
  }

  // max_retries - computed: false, optional: true, required: false
  private _maxRetries?: number; 
  public get maxRetries() {
    return this._maxRetries;
  }
  public set maxRetries(value: number | undefined) {
    this._maxRetries = value;
  }
  public resetMaxRetries() {
    this._maxRetries = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get maxRetriesInput() {
    return this._maxRetries;
  }

  // timeout_seconds - computed: false, optional: true, required: false
  private _timeoutSeconds?: number; 
  public get timeoutSeconds() {
    return this._timeoutSeconds;
  }
  public set timeoutSeconds(value: number | undefined) {
    this._timeoutSeconds = value;
  }
  public resetTimeoutSeconds() {
    this._timeoutSeconds = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get timeoutSecondsInput() {
    return this._timeoutSeconds;
  }

  // alias - computed: false, optional: true, required: false
  private _alias?: string; 
  public override get alias() {
    return this._alias;
  }
  public override set alias(value: string | undefined) {
    this._alias = value;
  }
  public resetAlias() {
    this._alias = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get aliasInput() {
    return this._alias;
  }

  // =========
  // SYNTHESIS
  // =========

  protected override synthesizeAttributes(): { [name: string]: any } {
    return {
      base_url: cdktf.stringToTerraform(this._baseUrl),
      token: cdktf.stringToTerraform(this._token),
      client_id: cdktf.stringToTerraform(this._clientId),
      client_secret: cdktf.stringToTerraform(this._clientSecret),
      token_env: cdktf.stringToTerraform(this._tokenEnv),
      client_id_env: cdktf.stringToTerraform(this._clientIdEnv),
      client_secret_env: cdktf.stringToTerraform(this._clientSecretEnv),
      ownership: cdktf.stringToTerraform(this._ownership),
      ownership_prefix: cdktf.stringToTerraform(this._ownershipPrefix),
      max_retries: cdktf.numberToTerraform(this._maxRetries),
      timeout_seconds: cdktf.numberToTerraform(this._timeoutSeconds),
      alias: cdktf.stringToTerraform(this._alias),
    };
  }

  protected override synthesizeHclAttributes(): { [name: string]: any } {
    const attrs = {
      base_url: {
        value: cdktf.stringToHclTerraform(this._baseUrl),
        isBlock: false,
        type: "simple",
        storageClassType: "string",
      },
      token: {
        value: cdktf.stringToHclTerraform(this._token),
        isBlock: false,
        type: "simple",
        storageClassType: "string",
      },
      client_id: {
        value: cdktf.stringToHclTerraform(this._clientId),
        isBlock: false,
        type: "simple",
        storageClassType: "string",
      },
      client_secret: {
        value: cdktf.stringToHclTerraform(this._clientSecret),
        isBlock: false,
        type: "simple",
        storageClassType: "string",
      },
      token_env: {
        value: cdktf.stringToHclTerraform(this._tokenEnv),
        isBlock: false,
        type: "simple",
        storageClassType: "string",
      },
      client_id_env: {
        value: cdktf.stringToHclTerraform(this._clientIdEnv),
        isBlock: false,
        type: "simple",
        storageClassType: "string",
      },
      client_secret_env: {
        value: cdktf.stringToHclTerraform(this._clientSecretEnv),
        isBlock: false,
        type: "simple",
        storageClassType: "string",
      },
      ownership: {
        value: cdktf.stringToHclTerraform(this._ownership),
        isBlock: false,
        type: "simple",
        storageClassType: "string",
      },
      ownership_prefix: {
        value: cdktf.stringToHclTerraform(this._ownershipPrefix),
        isBlock: false,
        type: "simple",
        storageClassType: "string",
      },
      max_retries: {
        value: cdktf.numberToHclTerraform(this._maxRetries),
        isBlock: false,
        type: "simple",
        storageClassType: "number",
      },
      timeout_seconds: {
        value: cdktf.numberToHclTerraform(this._timeoutSeconds),
        isBlock: false,
        type: "simple",
        storageClassType: "number",
      },
      alias: {
        value: cdktf.stringToHclTerraform(this._alias),
        isBlock: false,
        type: "simple",
        storageClassType: "string",
      },
    };

    // remove undefined attributes
    return Object.fromEntries(Object.entries(attrs).filter(([_, value]) => value !== undefined && value.value !== undefined ))
  }
}
