# Every domain and subdomain of the account gets a certificate-expiry alert at 21 days and an
# SPF validity alert, kept true as domains are added: Terraform iterates over the
# networkcalc_domains data source. (With ncalc, an AlertPolicy construct does the same; the
# alert names here are the ones it generates, "<check> · <host>".)
# Credentials and the API address come from NETWORKCALC_TOKEN (or NETWORKCALC_CLIENT_ID and
# NETWORKCALC_CLIENT_SECRET) and NETWORKCALC_BASE_URL; see ../README.md for the commands.

terraform {
  required_version = ">= 1.3"
  required_providers {
    networkcalc = {
      source  = "networkcalc/networkcalc"
      version = "~> 0.1"
    }
  }
}

provider "networkcalc" {}

data "networkcalc_domains" "all" {}

locals {
  # Every domain and subdomain by name, except those left out on purpose.
  targets = {
    for t in concat(
      [for d in data.networkcalc_domains.all.domains : { name = d.name, type = "domain", id = d.id }],
      [for s in data.networkcalc_domains.all.subdomains : { name = s.name, type = "subdomain", id = s.id }],
    ) : t.name => t if !startswith(t.name, "legacy.")
  }
}

resource "networkcalc_alert" "certificate" {
  for_each     = local.targets
  name         = "certificate expiry · ${each.key}"
  type         = "Certificate (TLS)"
  filter       = "expires in (days)"
  filter_value = "21"
  target_type  = each.value.type
  target_id    = each.value.id
}

resource "networkcalc_alert" "spf" {
  for_each    = local.targets
  name        = "SPF validity · ${each.key}"
  type        = "SPF Record"
  filter      = "validity"
  target_type = each.value.type
  target_id   = each.value.id
}

output "watched" {
  value = sort(keys(local.targets))
}
