import { listCustomers, upsertCustomer, type CustomerInput } from '@ledger/core/store';
import { presentPage } from '../../http/present.js';
import { pageOf, pick } from '../../http/query.js';
import type { FeatureContext, Handler } from '../feature.js';
import { presentCustomer } from './present.js';
import { upstreamHandlers } from './upstream.js';
import { viewHandlers } from './views.js';

export function handlers(context: FeatureContext): Record<string, Handler> {
  const { db } = context;
  return {
    ...viewHandlers(context),
    ...upstreamHandlers(context),
    listCustomers: async (req, res) => {
      const page = await listCustomers(db, pick(req.query, ['q'] as const), pageOf(req.query));
      res.json(presentPage(page, presentCustomer));
    },

    putCustomer: async (req, res) => {
      const { name, email, metadata, ...references } = req.body as Omit<CustomerInput, 'references'> &
        CustomerInput['references'];
      const input: CustomerInput = { name, email, metadata, references };
      const { created, customer } = await upsertCustomer(db, String(req.params.customer_id), input);
      res.status(created ? 201 : 200).json(presentCustomer(customer));
    },
  };
}
