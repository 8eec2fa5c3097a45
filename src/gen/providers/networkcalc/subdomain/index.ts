// https://registry.terraform.io/providers/networkcalc/networkcalc/latest/docs/resources/subdomain
// generated from terraform resource schema

import { Construct } from 'constructs';
import * as cdktf from '../../../../cdk';

// Configuration

export interface SubdomainConfig extends cdktf.TerraformMetaArguments {
  /**
  * Id of the domain: networkcalc_domain.<name>.id, data.networkcalc_domain.<name>.id, or a literal id.
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/networkcalc/networkcalc/latest/docs/resources/subdomain#domain_id Subdomain#domain_id}
  */
  readonly domainId: number;
  /**
  * The part before the domain: www, or my.demo for my.demo.example.com. Compared without regard to case.
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/networkcalc/networkcalc/latest/docs/resources/subdomain#prefix Subdomain#prefix}
  */
  readonly prefix: string;
}

/**
* Represents a {@link https://registry.terraform.io/providers/networkcalc/networkcalc/latest/docs/resources/subdomain networkcalc_subdomain}
*/
export class Subdomain extends cdktf.TerraformResource {

  // =================
  // STATIC PROPERTIES
  // =================
  public static readonly tfResourceType = "networkcalc_subdomain";

  // ==============
  // STATIC Methods
  // ==============
  /**
  * Generates CDKTF code for importing a Subdomain resource upon running "cdktf plan <stack-name>"
  * @param scope The scope in which to define this construct
  * @param importToId The construct id used in the generated config for the Subdomain to import
  * @param importFromId The id of the existing Subdomain that should be imported. Refer to the {@link https://registry.terraform.io/providers/networkcalc/networkcalc/latest/docs/resources/subdomain#import import section} in the documentation of this resource for the id to use
  * @param provider? Optional instance of the provider where the Subdomain to import is found
  */
  public static generateConfigForImport(scope: Construct, importToId: string, importFromId: string, provider?: cdktf.TerraformProvider) {
        return new cdktf.ImportableResource(scope, importToId, { terraformResourceType: "networkcalc_subdomain", importId: importFromId, provider });
      }

  // ===========
  // INITIALIZER
  // ===========

  /**
  * Create a new {@link https://registry.terraform.io/providers/networkcalc/networkcalc/latest/docs/resources/subdomain networkcalc_subdomain} Resource
  *
  * @param scope The scope in which to define this construct
  * @param id The scoped construct ID. Must be unique amongst siblings in the same scope
  * @param options SubdomainConfig
  */
  public constructor(scope: Construct, id: string, config: SubdomainConfig) {
    super(scope, id, {
      terraformResourceType: 'networkcalc_subdomain',
      terraformGeneratorMetadata: {
        providerName: 'networkcalc',
        providerVersionConstraint: '~> 0.1'
      },
      provider: config.provider,
      dependsOn: config.dependsOn,
      count: config.count,
      lifecycle: config.lifecycle,
      provisioners: config.provisioners,
      connection: config.connection,
      forEach: config.forEach
    });
    this._domainId = config.domainId;
    this._prefix = config.prefix;
  }

  // ==========
  // ATTRIBUTES
  // ==========

  // id - computed: true, optional: false, required: false
  public get id() {
    return this.getStringAttribute('id');
  }

  // domain_id - computed: false, optional: false, required: true
  private _domainId?: number; 
  public get domainId() {
    return this.getNumberAttribute('domain_id');
  }
  public set domainId(value: number) {
    this._domainId = value;
  }
  // Temporarily expose input value. Use with caution.
  public get domainIdInput() {
    return this._domainId;
  }

  // prefix - computed: false, optional: false, required: true
  private _prefix?: string; 
  public get prefix() {
    return this.getStringAttribute('prefix');
  }
  public set prefix(value: string) {
    this._prefix = value;
  }
  // Temporarily expose input value. Use with caution.
  public get prefixInput() {
    return this._prefix;
  }

  // name - computed: true, optional: false, required: false
  public get name() {
    return this.getStringAttribute('name');
  }

  // =========
  // SYNTHESIS
  // =========

  protected override synthesizeAttributes(): { [name: string]: any } {
    return {
      domain_id: cdktf.numberToTerraform(this._domainId),
      prefix: cdktf.stringToTerraform(this._prefix),
    };
  }

  protected override synthesizeHclAttributes(): { [name: string]: any } {
    const attrs = {
      domain_id: {
        value: cdktf.numberToHclTerraform(this._domainId),
        isBlock: false,
        type: "simple",
        storageClassType: "number",
      },
      prefix: {
        value: cdktf.stringToHclTerraform(this._prefix),
        isBlock: false,
        type: "simple",
        storageClassType: "string",
      },
    };

    // remove undefined attributes
    return Object.fromEntries(Object.entries(attrs).filter(([_, value]) => value !== undefined && value.value !== undefined ))
  }
}
