// Date range, granularity and time zone of an analytics page, with quick presets.
import { Field, Select } from '../components/field.tsx';
import { GRANULARITIES, lastDays, type Granularity, type Range } from './range.ts';

const PRESETS = [7, 30, 90] as const;

/** UTC, this browser's zone, then every zone the browser knows. */
const ZONES = [
  ...new Set(['UTC', Intl.DateTimeFormat().resolvedOptions().timeZone, ...Intl.supportedValuesOf('timeZone')]),
];

export function RangePicker({ range, onChange }: { range: Range; onChange: (range: Range) => void }) {
  const set = (patch: Partial<Range>) => onChange({ ...range, ...patch });
  return (
    <form class="range-picker" aria-label="Date range" onSubmit={(e) => e.preventDefault()}>
      <Field label="From" id="range-from">
        <input
          id="range-from"
          type="date"
          value={range.from}
          max={range.to}
          onInput={(e) => set({ from: e.currentTarget.value })}
        />
      </Field>
      <Field label="To" id="range-to">
        <input
          id="range-to"
          type="date"
          value={range.to}
          min={range.from}
          onInput={(e) => set({ to: e.currentTarget.value })}
        />
      </Field>
      <Field label="Granularity" id="range-granularity">
        <Select
          id="range-granularity"
          value={range.granularity}
          options={GRANULARITIES}
          onChange={(g) => set({ granularity: g as Granularity })}
        />
      </Field>
      <Field label="Time zone" id="range-timezone">
        <Select id="range-timezone" value={range.timezone} options={ZONES} onChange={(timezone) => set({ timezone })} />
      </Field>
      <div class="presets" role="group" aria-label="Presets">
        {PRESETS.map((days) => (
          <button key={days} type="button" class="secondary" onClick={() => set(lastDays(days, range.timezone))}>
            Last {days} days
          </button>
        ))}
      </div>
    </form>
  );
}
