import express from 'express';
import request from 'supertest';
import { createTestContext, type TestContext } from '../../testing/test-app';
import { healthRouter } from './api';

describe('GET /healthz', () => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestContext();
  });
  afterAll(() => t.close());

  test('answers 200 when the database is reachable', async () => {
    const res = await request(t.app).get('/healthz');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'ok', database: 'ok' });
    expect(res.headers['set-cookie']).toBeUndefined();
  });

  test('answers 503 when the database is not', async () => {
    const unreachable = { raw: () => Promise.reject(new Error('connection refused')) };
    const app = express().use(healthRouter({ ...t.ctx, db: unreachable as never }));
    const res = await request(app).get('/healthz');
    expect(res.status).toBe(503);
    expect(res.body.database).toBe('unreachable');
  });
});
