import { listCustomers, upsertCustomer, type CustomerInput } from '@ledger/core';
import { Router } from 'express';
import { pageOf, pick } from '../http/query.js';
import type { RouteContext } from './context.js';
import { presentCustomer, presentPage } from './present.js';

export function customerRoutes({ db }: RouteContext): Router {
  const router = Router();

  router.get('/v1/customers', async (req, res) => {
    const page = await listCustomers(db, pick(req.query, ['q'] as const), pageOf(req.query));
    res.json(presentPage(page, presentCustomer));
  });

  router.put('/v1/customers/:customer_id', async (req, res) => {
    const { created, customer } = await upsertCustomer(db, req.params.customer_id, req.body as CustomerInput);
    res.status(created ? 201 : 200).json(presentCustomer(customer));
  });

  return router;
}
