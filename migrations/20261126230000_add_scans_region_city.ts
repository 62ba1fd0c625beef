import type { Knex } from 'knex';

// Region and city of a scan (issue 19), from the MMDB city database GEOIP_CITY_DB names; null
// without one (the default) and for every scan recorded before. Values carry what they lie in
// ("US/California", "US/California/San Jose"), so they fit the rollups' 191-character value as
// they are. No index: breakdowns read the rollups, raw scans only at a window's partial edges.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('scans', (t) => {
    t.string('region', 191).nullable();
    t.string('city', 191).nullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('scans', (t) => {
    t.dropColumn('city');
    t.dropColumn('region');
  });
}
