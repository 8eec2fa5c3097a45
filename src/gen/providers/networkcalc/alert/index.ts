// https://registry.terraform.io/providers/networkcalc/networkcalc/latest/docs/resources/alert
// generated from terraform resource schema

import { Construct } from 'constructs';
import * as cdktf from '../../../../cdk';

// Configuration

export interface AlertConfig extends cdktf.TerraformMetaArguments {
  /**
  * Display name. ncalc identifies an alert by its name within the account.
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/networkcalc/networkcalc/latest/docs/resources/alert#name Alert#name}
  */
  readonly name: string;
  /**
  * Alert type: "DNS Record", "SPF Record", "Certificate (TLS)".
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/networkcalc/networkcalc/latest/docs/resources/alert#type Alert#type}
  */
  readonly type: string;
  /**
  * Record type of a "DNS Record" alert: "A", "CNAME", "MX", "TXT". Leave unset for the other types.
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/networkcalc/networkcalc/latest/docs/resources/alert#subtype Alert#subtype}
  */
  readonly subtype?: string;
  /**
  * Condition checked. DNS Record: "equals", "does not equal", "contains", "does not contain". SPF Record: "equals", "does not equal", "contains", "does not contain", "validity". Certificate (TLS): "subject", "expires in (days)".
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/networkcalc/networkcalc/latest/docs/resources/alert#filter Alert#filter}
  */
  readonly filter: string;
  /**
  * Value compared by the filter. A positive whole number of days for "expires in (days)"; unset for "validity".
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/networkcalc/networkcalc/latest/docs/resources/alert#filter_value Alert#filter_value}
  */
  readonly filterValue?: string;
  /**
  * What the alert watches: "domain", "subdomain".
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/networkcalc/networkcalc/latest/docs/resources/alert#target_type Alert#target_type}
  */
  readonly targetType: string;
  /**
  * Id of the watched domain or subdomain: networkcalc_domain.<name>.id / networkcalc_subdomain.<name>.id of a declared one, or the networkcalc_domain / networkcalc_subdomain data sources to look up an existing one by name.
  *
  * Docs at Terraform Registry: {@link https://registry.terraform.io/providers/networkcalc/networkcalc/latest/docs/resources/alert#target_id Alert#target_id}
  */
  readonly targetId: number;
}

/**
* Represents a {@link https://registry.terraform.io/providers/networkcalc/networkcalc/latest/docs/resources/alert networkcalc_alert}
*/
export class Alert extends cdktf.TerraformResource {

  // =================
  // STATIC PROPERTIES
  // =================
  public static readonly tfResourceType = "networkcalc_alert";

  // ==============
  // STATIC Methods
  // ==============
  /**
  * Generates CDKTF code for importing a Alert resource upon running "cdktf plan <stack-name>"
  * @param scope The scope in which to define this construct
  * @param importToId The construct id used in the generated config for the Alert to import
  * @param importFromId The id of the existing Alert that should be imported. Refer to the {@link https://registry.terraform.io/providers/networkcalc/networkcalc/latest/docs/resources/alert#import import section} in the documentation of this resource for the id to use
  * @param provider? Optional instance of the provider where the Alert to import is found
  */
  public static generateConfigForImport(scope: Construct, importToId: string, importFromId: string, provider?: cdktf.TerraformProvider) {
        return new cdktf.ImportableResource(scope, importToId, { terraformResourceType: "networkcalc_alert", importId: importFromId, provider });
      }

  // ===========
  // INITIALIZER
  // ===========

  /**
  * Create a new {@link https://registry.terraform.io/providers/networkcalc/networkcalc/latest/docs/resources/alert networkcalc_alert} Resource
  *
  * @param scope The scope in which to define this construct
  * @param id The scoped construct ID. Must be unique amongst siblings in the same scope
  * @param options AlertConfig
  */
  public constructor(scope: Construct, id: string, config: AlertConfig) {
    super(scope, id, {
      terraformResourceType: 'networkcalc_alert',
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
    this._name = config.name;
    this._type = config.type;
    this._subtype = config.subtype;
    this._filter = config.filter;
    this._filterValue = config.filterValue;
    this._targetType = config.targetType;
    this._targetId = config.targetId;
  }

  // ==========
  // ATTRIBUTES
  // ==========

  // id - computed: true, optional: false, required: false
  public get id() {
    return this.getStringAttribute('id');
  }

  // name - computed: false, optional: false, required: true
  private _name?: string; 
  public get name() {
    return this.getStringAttribute('name');
  }
  public set name(value: string) {
    this._name = value;
  }
  // Temporarily expose input value. Use with caution.
  public get nameInput() {
    return this._name;
  }

  // type - computed: false, optional: false, required: true
  private _type?: string; 
  public get type() {
    return this.getStringAttribute('type');
  }
  public set type(value: string) {
    this._type = value;
  }
  // Temporarily expose input value. Use with caution.
  public get typeInput() {
    return this._type;
  }

  // subtype - computed: false, optional: true, required: false
  private _subtype?: string; 
  public get subtype() {
    return this.getStringAttribute('subtype');
  }
  public set subtype(value: string) {
    this._subtype = value;
  }
  public resetSubtype() {
    this._subtype = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get subtypeInput() {
    return this._subtype;
  }

  // filter - computed: false, optional: false, required: true
  private _filter?: string; 
  public get filter() {
    return this.getStringAttribute('filter');
  }
  public set filter(value: string) {
    this._filter = value;
  }
  // Temporarily expose input value. Use with caution.
  public get filterInput() {
    return this._filter;
  }

  // filter_value - computed: false, optional: true, required: false
  private _filterValue?: string; 
  public get filterValue() {
    return this.getStringAttribute('filter_value');
  }
  public set filterValue(value: string) {
    this._filterValue = value;
  }
  public resetFilterValue() {
    this._filterValue = undefined;
  }
  // Temporarily expose input value. Use with caution.
  public get filterValueInput() {
    return this._filterValue;
  }

  // target_type - computed: false, optional: false, required: true
  private _targetType?: string; 
  public get targetType() {
    return this.getStringAttribute('target_type');
  }
  public set targetType(value: string) {
    this._targetType = value;
  }
  // Temporarily expose input value. Use with caution.
  public get targetTypeInput() {
    return this._targetType;
  }

  // target_id - computed: false, optional: false, required: true
  private _targetId?: number; 
  public get targetId() {
    return this.getNumberAttribute('target_id');
  }
  public set targetId(value: number) {
    this._targetId = value;
  }
  // Temporarily expose input value. Use with caution.
  public get targetIdInput() {
    return this._targetId;
  }

  // user_id - computed: true, optional: false, required: false
  public get userId() {
    return this.getNumberAttribute('user_id');
  }

  // is_active - computed: true, optional: false, required: false
  public get isActive() {
    return this.getBooleanAttribute('is_active');
  }

  // current_status - computed: true, optional: false, required: false
  public get currentStatus() {
    return this.getStringAttribute('current_status');
  }

  // action - computed: true, optional: false, required: false
  public get action() {
    return this.getStringAttribute('action');
  }

  // last_triggered_at - computed: true, optional: false, required: false
  public get lastTriggeredAt() {
    return this.getStringAttribute('last_triggered_at');
  }

  // =========
  // SYNTHESIS
  // =========

  protected override synthesizeAttributes(): { [name: string]: any } {
    return {
      name: cdktf.stringToTerraform(this._name),
      type: cdktf.stringToTerraform(this._type),
      subtype: cdktf.stringToTerraform(this._subtype),
      filter: cdktf.stringToTerraform(this._filter),
      filter_value: cdktf.stringToTerraform(this._filterValue),
      target_type: cdktf.stringToTerraform(this._targetType),
      target_id: cdktf.numberToTerraform(this._targetId),
    };
  }

  protected override synthesizeHclAttributes(): { [name: string]: any } {
    const attrs = {
      name: {
        value: cdktf.stringToHclTerraform(this._name),
        isBlock: false,
        type: "simple",
        storageClassType: "string",
      },
      type: {
        value: cdktf.stringToHclTerraform(this._type),
        isBlock: false,
        type: "simple",
        storageClassType: "string",
      },
      subtype: {
        value: cdktf.stringToHclTerraform(this._subtype),
        isBlock: false,
        type: "simple",
        storageClassType: "string",
      },
      filter: {
        value: cdktf.stringToHclTerraform(this._filter),
        isBlock: false,
        type: "simple",
        storageClassType: "string",
      },
      filter_value: {
        value: cdktf.stringToHclTerraform(this._filterValue),
        isBlock: false,
        type: "simple",
        storageClassType: "string",
      },
      target_type: {
        value: cdktf.stringToHclTerraform(this._targetType),
        isBlock: false,
        type: "simple",
        storageClassType: "string",
      },
      target_id: {
        value: cdktf.numberToHclTerraform(this._targetId),
        isBlock: false,
        type: "simple",
        storageClassType: "number",
      },
    };

    // remove undefined attributes
    return Object.fromEntries(Object.entries(attrs).filter(([_, value]) => value !== undefined && value.value !== undefined ))
  }
}
