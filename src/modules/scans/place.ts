// How the region and city of a scan are described wherever they are shown (raw export, webhooks,
// GraphQL): one wording, kept with the scans module that records them (client-info.ts, Place).
import { z } from 'zod';

export const REGION_DESCRIPTION =
  'Country code and English name of the region (state, province), as in "US/California", from the city ' +
  'database (GEOIP_CITY_DB); null without one, or when it does not place the address.';

export const CITY_DESCRIPTION =
  'Country code, region and English name of the city, as in "US/California/San Jose" (the region may be ' +
  'empty: "SG//Singapore"), from the city database (GEOIP_CITY_DB); null without one, or when it does not ' +
  'place the address.';

export const regionSchema = z.string().nullable().meta({ description: REGION_DESCRIPTION, example: 'DE/Bavaria' });
export const citySchema = z.string().nullable().meta({ description: CITY_DESCRIPTION, example: 'DE/Bavaria/Munich' });
