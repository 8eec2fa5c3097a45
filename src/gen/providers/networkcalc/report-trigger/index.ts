// https://registry.terraform.io/providers/networkcalc/networkcalc/latest/docs/resources/report_trigger
// generated from terraform resource schema

import { Construct } from 'constructs';
import * as cdktf from '../../../../cdk';

// Configuration

export interface ReportTriggerConfig extends cdktf.TerraformMetaArguments {
  /**
  * Id of the domain to report on. Exactly one of domain_id and subdomain_id is required.
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/networkcalc/networkcalc/latest/docs/resources/report_trigger#domain_id ReportTrigger#domain_id}
  */
  readonly domainId?: number;
  /**
  * Id of the subdomain to report on. Exactly one of domain_id and subdomain_id is required.
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/networkcalc/networkcalc/latest/docs/resources/report_trigger#subdomain_id ReportTrigger#subdomain_id}
  */
  readonly subdomainId?: number;
  /**
  * Arbitrary values; any change triggers a new report.
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/networkcalc/networkcalc/latest/docs/resources/report_trigger#triggers ReportTrigger#triggers}
  */
  readonly triggers?: { [key: string]: string };
}

/**
* Represents a {@link https://registry.terraform.io/providers/networkcalc/networkcalc/latest/docs/resources/report_trigger networkcalc_report_trigger}
*/
export class ReportTrigger extends cdktf.TerraformResource {

  // =================
  // STATIC PROPERTIES
  // =================
  public static readonly tfResourceType = "networkcalc_report_trigger";

  // ==============
  // STATIC Methods
  // ==============
  /**
  * Generates CDKTF code for importing a ReportTrigger resource upon running "cdktf plan <stack-name>"
  * @param scope The scope in which to define this construct
  * @param importToId The construct id used in the generated config for the ReportTrigger to import
  * @param importFromId The id of the existing ReportTrigger that should be imported. Refer to the {@link https://registry.terraform.io/providers/networkcalc/networkcalc/latest/docs/resources/report_trigger#import import section} in the documentation of this resource for the id to use
  * @param provider? Optional instance of the provider where the ReportTrigger to import is found
  */
  public static generateConfigForImport(scope: Construct, importToId: string, importFromId: string, provider?: cdktf.TerraformProvider) {
        return new cdktf.ImportableResource(scope, importToId, { terraformResourceType: "networkcalc_report_trigger", importId: importFromId, provider });
      }

  // ===========
  // INITIALIZER
  // ===========

  /**
  * Create a new {@link https://registry.terraform.io/providers/networkcalc/networkcalc/latest/docs/resources/report_trigger networkcalc_report_trigger} Resource
  *
  * @param scope The scope in which to define this construct
  * @param id The scoped construct ID. Must be unique amongst siblings in the same scope
  * @param options ReportTriggerConfig = {}
  */
  public constructor(scope: Construct, id: string, config: ReportTriggerConfig = {}) {
    super(scope, id, {
      terraformResourceType: 'networkcalc_report_trigger',
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
    this._subdomainId = config.subdomainId;
    this._triggers = config.triggers;
  }

  // ==========
  // ATTRIBUTES
  // ==========

  // id - computed: true, optional: false, required: false
  public get id() {
    return this.getStringAttribute('id');
  }

  // domain_id - computed: false, optional: true, required: false
  private _domainId?: number; 
  public get domainId() {
    return this.getNumberAttribute('domain_id');
  }
  public set domainId(value: number) {
    this._domainId = value;
  }
  public resetDomainId() {
    this._domainId = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get domainIdInput() {
    return this._domainId;
  }

  // subdomain_id - computed: false, optional: true, required: false
  private _subdomainId?: number; 
  public get subdomainId() {
    return this.getNumberAttribute('subdomain_id');
  }
  public set subdomainId(value: number) {
    this._subdomainId = value;
  }
  public resetSubdomainId() {
    this._subdomainId = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get subdomainIdInput() {
    return this._subdomainId;
  }

  // triggers - computed: false, optional: true, required: false
  private _triggers?: { [key: string]: string }; 
  public get triggers() {
    return this.getStringMapAttribute('triggers');
  }
  public set triggers(value: { [key: string]: string }) {
    this._triggers = value;
  }
  public resetTriggers() {
    this._triggers = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get triggersInput() {
    return this._triggers;
  }

  // report_url - computed: true, optional: false, required: false
  public get reportUrl() {
    return this.getStringAttribute('report_url');
  }

  // status - computed: true, optional: false, required: false
  public get status() {
    return this.getStringAttribute('status');
  }

  // triggered_at - computed: true, optional: false, required: false
  public get triggeredAt() {
    return this.getStringAttribute('triggered_at');
  }

  // =========
  // SYNTHESIS
  // =========

  protected override synthesizeAttributes(): { [name: string]: any } {
    return {
      domain_id: cdktf.numberToTerraform(this._domainId),
      subdomain_id: cdktf.numberToTerraform(this._subdomainId),
      triggers: cdktf.hashMapper(cdktf.stringToTerraform)(this._triggers),
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
      subdomain_id: {
        value: cdktf.numberToHclTerraform(this._subdomainId),
        isBlock: false,
        type: "simple",
        storageClassType: "number",
      },
      triggers: {
        value: cdktf.hashMapperHcl(cdktf.stringToHclTerraform)(this._triggers),
        isBlock: false,
        type: "map",
        storageClassType: "stringMap",
      },
    };

    // remove undefined attributes
    return Object.fromEntries(Object.entries(attrs).filter(([_, value]) => value !== undefined && value.value !== undefined ))
  }
}
