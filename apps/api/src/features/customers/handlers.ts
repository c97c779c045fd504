import { listCustomers, upsertCustomer, type CustomerInput } from '@ledger/core';
import { presentPage } from '../../http/present.js';
import { pageOf, pick } from '../../http/query.js';
import type { FeatureContext, Handler } from '../feature.js';
import { presentCustomer } from './present.js';

export function handlers({ db }: FeatureContext): Record<string, Handler> {
  return {
    listCustomers: async (req, res) => {
      const page = await listCustomers(db, pick(req.query, ['q'] as const), pageOf(req.query));
      res.json(presentPage(page, presentCustomer));
    },

    putCustomer: async (req, res) => {
      const { name, email, metadata, ...references } = req.body as Omit<CustomerInput, 'references'> & CustomerInput['references'];
      const input: CustomerInput = { name, email, metadata, references };
      const { created, customer } = await upsertCustomer(db, String(req.params.customer_id), input);
      res.status(created ? 201 : 200).json(presentCustomer(customer));
    },
  };
}
