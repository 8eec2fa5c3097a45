# Alerts for example.com and www.example.com with plain Terraform.
# Credentials and the API address come from NETWORKCALC_TOKEN (or NETWORKCALC_CLIENT_ID and
# NETWORKCALC_CLIENT_SECRET) and NETWORKCALC_BASE_URL; see README.md for the commands.

terraform {
  required_providers {
    networkcalc = {
      source  = "networkcalc/networkcalc"
      version = "~> 0.1"
    }
  }
}

provider "networkcalc" {}

data "networkcalc_domain" "example" {
  name = "example.com"
}

data "networkcalc_subdomain" "www" {
  name = "www.example.com"
}

resource "networkcalc_alert" "apex_a" {
  name         = "example.com A record"
  type         = "DNS Record"
  subtype      = "A"
  filter       = "equals"
  filter_value = "93.184.215.14"
  target_type  = "domain"
  target_id    = data.networkcalc_domain.example.id
}

resource "networkcalc_alert" "apex_spf" {
  name        = "example.com SPF validity"
  type        = "SPF Record"
  filter      = "validity"
  target_type = "domain"
  target_id   = data.networkcalc_domain.example.id
}

resource "networkcalc_alert" "www_certificate" {
  name         = "www.example.com certificate expiry"
  type         = "Certificate (TLS)"
  filter       = "expires in (days)"
  filter_value = "21"
  target_type  = "subdomain"
  target_id    = data.networkcalc_subdomain.www.id
}

# A new report whenever the alerts change.
resource "networkcalc_report_trigger" "example" {
  domain_id = data.networkcalc_domain.example.id
  triggers = {
    alerts = join(",", [
      networkcalc_alert.apex_a.id,
      networkcalc_alert.apex_spf.id,
      networkcalc_alert.www_certificate.id,
    ])
  }
}

output "report_url" {
  value = networkcalc_report_trigger.example.report_url
}

output "alert_ids" {
  value = {
    apex_a          = networkcalc_alert.apex_a.id
    apex_spf        = networkcalc_alert.apex_spf.id
    www_certificate = networkcalc_alert.www_certificate.id
  }
}
