// Date range, granularity and time zone of an analytics page, with quick presets.
import { useState } from 'preact/hooks';
import { Field, Select } from '../components/field.tsx';
import { useT } from '../i18n/index.ts';
import { GRANULARITIES, lastDays, type Granularity, type Range } from './range.ts';

const PRESETS = [7, 30, 90] as const;

let everyZone: string[] | undefined;

/** UTC, this browser's zone, then every zone the browser knows (`all`) or only the one shown. */
function zones(current: string, all: boolean): string[] {
  const first = ['UTC', Intl.DateTimeFormat().resolvedOptions().timeZone];
  if (!all) return [...new Set([...first, current])];
  return (everyZone ??= [...new Set([...first, ...Intl.supportedValuesOf('timeZone')])]);
}

export function RangePicker({ range, onChange }: { range: Range; onChange: (range: Range) => void }) {
  const t = useT();
  const words = t.analytics.range;
  const set = (patch: Partial<Range>) => onChange({ ...range, ...patch });
  // The browser's some 430 zones, 20-30 ms of options on this machine (4x on a throttled phone),
  // are listed when the picker is reached for; until then it offers UTC, this browser's zone and
  // the one shown. Its width (styles.css) does not change when the list fills.
  const [allZones, setAllZones] = useState(false);
  return (
    <form class="range-picker" aria-label={words.form} onSubmit={(e) => e.preventDefault()}>
      <Field label={words.from} id="range-from">
        <input
          id="range-from"
          type="date"
          value={range.from}
          max={range.to}
          onInput={(e) => set({ from: e.currentTarget.value })}
        />
      </Field>
      <Field label={words.to} id="range-to">
        <input
          id="range-to"
          type="date"
          value={range.to}
          min={range.from}
          onInput={(e) => set({ to: e.currentTarget.value })}
        />
      </Field>
      <Field label={words.granularity} id="range-granularity">
        <Select
          id="range-granularity"
          value={range.granularity}
          options={GRANULARITIES}
          labels={words.granularities}
          onChange={(g) => set({ granularity: g as Granularity })}
        />
      </Field>
      <Field label={words.timeZone} id="range-timezone">
        <Select
          id="range-timezone"
          value={range.timezone}
          options={zones(range.timezone, allZones)}
          onChange={(timezone) => set({ timezone })}
          onReach={() => setAllZones(true)}
        />
      </Field>
      <div class="presets" role="group" aria-label={words.presets}>
        {PRESETS.map((days) => (
          <button key={days} type="button" class="secondary" onClick={() => set(lastDays(days, range.timezone))}>
            {words.lastDays(days)}
          </button>
        ))}
      </div>
    </form>
  );
}
