#!/usr/bin/env node
// Links the UAE customer registry's customers into a UAE book, as an operator would, one
// `PUT /v1/customers/{customer_id}` each (docs/jobs.md#uae-customers-and-their-upstream-references):
// name, uaefeed_customer_number, uaefeed_account_number, custodian_account. Idempotent.
//   API_GLOBAL_BASE_URL  the registry (the sandbox's env file sets it)
//   LEDGER_API_URL       the UAE book's api (default http://127.0.0.1:8080)
//   LEDGER_ADMIN_TOKEN   its admin token (the file scripts/run.sh printed)
const registry = process.env.API_GLOBAL_BASE_URL;
const api = process.env.LEDGER_API_URL ?? 'http://127.0.0.1:8080';
const token = process.env.LEDGER_ADMIN_TOKEN;
if (!registry || !token) {
  console.error('link-uae-customers: API_GLOBAL_BASE_URL and LEDGER_ADMIN_TOKEN are required');
  process.exit(2);
}

let linked = 0;
for (let page = 1; page !== null; ) {
  const answer = await fetch(`${registry}/v1/uae/customers?page=${page}&per_page=100`);
  if (!answer.ok) throw new Error(`registry answered ${answer.status}`);
  const { data, page_meta: meta } = await answer.json();
  for (const c of data) {
    const body = { name: c.name, uaefeed_customer_number: c.uaefeed_customer_number, uaefeed_account_number: c.uaefeed_account_number, custodian_account: c.custodian_account };
    const put = await fetch(`${api}/v1/customers/${encodeURIComponent(c.customer_id)}`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json', 'x-ledger-admin-token': token },
      body: JSON.stringify(body),
    });
    if (!put.ok) throw new Error(`PUT /v1/customers/${c.customer_id} answered ${put.status}: ${await put.text()}`);
    linked += 1;
  }
  page = meta.next;
}
console.log(`link-uae-customers: ${linked} customers linked`);
