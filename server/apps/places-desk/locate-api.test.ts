import { createMember, createTestContext, guestAgent, memberAgent, type Agent, type TestContext } from '../../testing/test-app';
import { createNeighbourhood, createSubwayStop } from '../../testing/fixtures';
import { PLACE_LOCATE_API, describePlaceLocation } from '../../../shared/place-pin';

// The staff locate route the form's map pin asks as it moves: staff only, a 400 naming the field
// on a bad number, and what locatePlace finds otherwise.

describe(`GET ${PLACE_LOCATE_API}`, () => {
  let t: TestContext;
  let staff: Agent;

  beforeAll(async () => {
    t = await createTestContext();
    staff = await memberAgent(t, await createMember(t.ctx, { is_staff: true }));
    await createNeighbourhood(t.ctx.db, { name: 'Kensington Test' });
    await createSubwayStop(t.ctx.db, { name: 'Spadina Test', latitude: 43.6507, longitude: -79.39 });
  });
  afterAll(() => t.close());

  test('answers the neighbourhood and the nearest station, never cached', async () => {
    const res = await staff.get(`${PLACE_LOCATE_API}?latitude=43.6535&longitude=-79.39`).expect(200);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.body).toEqual({ neighbourhood: { id: expect.any(Number), name: 'Kensington Test' }, station: { id: expect.any(Number), name: 'Spadina Test', distanceM: expect.any(Number) } });
    expect(res.body.station.distanceM).toBeGreaterThan(300);
    expect(res.body.station.distanceM).toBeLessThan(330);
    expect(describePlaceLocation(res.body)).toBe('Neighbourhood: Kensington Test · Nearest station: Spadina Test (310 m)');
  });

  test('outside Toronto: both null, and the line says so', async () => {
    const res = await staff.get(`${PLACE_LOCATE_API}?latitude=45.5&longitude=-73.56`).expect(200);
    expect(res.body).toEqual({ neighbourhood: null, station: null });
    expect(describePlaceLocation(res.body)).toBe('That point is outside Toronto.');
  });

  test('a bad or missing number is a 400 naming its field', async () => {
    expect((await staff.get(`${PLACE_LOCATE_API}?latitude=north&longitude=-79.39`).expect(400)).body).toEqual({ latitude: ['A valid number is required.'] });
    expect((await staff.get(`${PLACE_LOCATE_API}?latitude=43.65&longitude=-200`).expect(400)).body).toEqual({ longitude: ['Ensure this value is between -180 and 180.'] });
    expect((await staff.get(`${PLACE_LOCATE_API}?latitude=43.65`).expect(400)).body).toEqual({ longitude: ['This field is required.'] });
    expect((await staff.get(`${PLACE_LOCATE_API}?latitude=1&latitude=2&longitude=-79.39`).expect(400)).body).toHaveProperty('latitude');
  });

  test('guests get 401, members who are not staff 403', async () => {
    await guestAgent(t.app).get(`${PLACE_LOCATE_API}?latitude=43.65&longitude=-79.39`).expect(401);
    const member = await memberAgent(t, await createMember(t.ctx));
    await member.get(`${PLACE_LOCATE_API}?latitude=43.65&longitude=-79.39`).expect(403);
  });
});
