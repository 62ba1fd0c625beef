// The design half of the editor: style, colors, gradient, eyes, frame, quiet zone, error
// correction and logo (a URL the server fetches, or an image uploaded here). Every change goes
// to the parent at once, which redraws the preview.
import type { ComponentChildren } from 'preact';
import { Field, Select } from '../components/field.tsx';
import type { FieldProblem } from '../graphql.ts';
import { useT } from '../i18n/index.ts';
import { ImageUpload } from './image-upload.tsx';
import { EYE_STYLES, LEVELS, STYLES, type DesignForm, type GradientForm } from './model.ts';

interface DesignFieldsProps {
  design: DesignForm;
  problems: FieldProblem[];
  onChange: (design: DesignForm) => void;
}

export function DesignFields({ design, problems, onChange }: DesignFieldsProps) {
  const t = useT().editor.design;
  const set = (patch: Partial<DesignForm>) => onChange({ ...design, ...patch });
  const setGradient = (patch: Partial<GradientForm>) =>
    design.gradient && set({ gradient: { ...design.gradient, ...patch } });
  const field = (label: string, name: string, control: ComponentChildren, hint?: string) => (
    <Field label={label} id={`design-${name}`} path={`design.${name}`} problems={problems} hint={hint}>
      {control}
    </Field>
  );

  return (
    <fieldset>
      <legend>{t.legend}</legend>
      {field(
        t.style,
        'style',
        <Select
          id="design-style"
          value={design.style}
          options={STYLES}
          labels={t.styles}
          onChange={(style) => set({ style })}
        />,
      )}
      <div class="row">
        {field(
          t.fgColor,
          'fgColor',
          <input
            id="design-fgColor"
            type="color"
            value={design.fgColor}
            onInput={(e) => set({ fgColor: e.currentTarget.value })}
          />,
        )}
        {field(
          t.bgColor,
          'bgColor',
          <input
            id="design-bgColor"
            type="color"
            value={design.bgColor}
            onInput={(e) => set({ bgColor: e.currentTarget.value })}
          />,
        )}
      </div>
      {field(
        t.gradient,
        'gradient.type',
        <Select
          id="design-gradient.type"
          value={design.gradient?.type ?? 'none'}
          options={['none', 'linear', 'radial']}
          labels={t.gradients}
          onChange={(type) =>
            set({
              gradient:
                type === 'none'
                  ? null
                  : {
                      from: design.gradient?.from ?? design.fgColor,
                      to: design.gradient?.to ?? '#1d4ed8',
                      angle: design.gradient?.angle ?? 0,
                      type: type as GradientForm['type'],
                    },
            })
          }
        />,
      )}
      {design.gradient && (
        <div class="row">
          {field(
            t.from,
            'gradient.from',
            <input
              id="design-gradient.from"
              type="color"
              value={design.gradient.from}
              onInput={(e) => setGradient({ from: e.currentTarget.value })}
            />,
          )}
          {field(
            t.to,
            'gradient.to',
            <input
              id="design-gradient.to"
              type="color"
              value={design.gradient.to}
              onInput={(e) => setGradient({ to: e.currentTarget.value })}
            />,
          )}
          {design.gradient.type === 'linear' &&
            field(
              t.angle,
              'gradient.angle',
              <input
                id="design-gradient.angle"
                type="number"
                min={0}
                max={360}
                value={design.gradient.angle}
                onInput={(e) => setGradient({ angle: e.currentTarget.valueAsNumber || 0 })}
              />,
            )}
        </div>
      )}
      <div class="row">
        {field(
          t.eyes,
          'eyeStyle',
          <Select
            id="design-eyeStyle"
            value={design.eyeStyle}
            options={['', ...EYE_STYLES]}
            labels={t.eyeStyles}
            onChange={(eyeStyle) => set({ eyeStyle })}
          />,
        )}
        {field(
          t.eyeColor,
          'eyeColor',
          <span class="inline">
            <label>
              <input
                type="checkbox"
                checked={design.eyeColor === null}
                onChange={(e) => set({ eyeColor: e.currentTarget.checked ? null : design.fgColor })}
              />{' '}
              {t.sameAsModules}
            </label>
            {design.eyeColor !== null && (
              <input
                id="design-eyeColor"
                type="color"
                value={design.eyeColor}
                onInput={(e) => set({ eyeColor: e.currentTarget.value })}
              />
            )}
          </span>,
        )}
      </div>
      <div class="row">
        {field(
          t.frame,
          'frame',
          <Select
            id="design-frame"
            value={design.frame}
            options={['none', 'banner']}
            labels={t.frames}
            onChange={(frame) => set({ frame: frame as DesignForm['frame'] })}
          />,
        )}
        {design.frame === 'banner' &&
          field(
            t.frameText,
            'frameText',
            <input
              id="design-frameText"
              maxLength={30}
              placeholder={t.frameTextPlaceholder}
              value={design.frameText}
              onInput={(e) => set({ frameText: e.currentTarget.value })}
            />,
          )}
      </div>
      <div class="row">
        {field(
          t.margin,
          'margin',
          <input
            id="design-margin"
            type="number"
            min={2}
            max={16}
            value={design.margin}
            onInput={(e) => set({ margin: e.currentTarget.valueAsNumber })}
          />,
        )}
        {field(
          t.errorCorrection,
          'errorCorrection',
          <Select
            id="design-errorCorrection"
            value={design.errorCorrection}
            options={['', ...LEVELS]}
            labels={{ '': t.automatic }}
            onChange={(errorCorrection) => set({ errorCorrection })}
          />,
        )}
      </div>
      {field(
        t.logoUrl,
        'logoUrl',
        <input
          id="design-logoUrl"
          type="url"
          placeholder="https://example.com/logo.png"
          // One logo at a time: an uploaded one is removed before a URL can be given.
          disabled={design.logoImageId !== ''}
          value={design.logoUrl}
          onInput={(e) => set({ logoUrl: e.currentTarget.value })}
        />,
        design.logoImageId === '' ? t.logoUrlHint : t.logoUrlTakenHint,
      )}
      <ImageUpload
        id="design-logoImageId"
        label={t.logoUpload}
        hint={t.logoUploadHint}
        path="design.logoImageId"
        problems={problems}
        imageId={design.logoImageId}
        alt={t.logoAlt}
        removeLabel={t.removeLogo}
        onChange={(logoImageId) => set({ logoImageId, logoUrl: '' })}
      />
      <WholeDesignProblems problems={problems} />
    </fieldset>
  );
}

/** Problems about the design as a whole (it does not scan) belong to no single input. */
function WholeDesignProblems({ problems }: { problems: FieldProblem[] }) {
  const t = useT().editor.design;
  const whole = problems.filter((p) => p.path === 'design');
  if (whole.length === 0) return null;
  return (
    <ul class="field-messages">
      {whole.map((p) => (
        <li key={p.message}>{t.wholeProblem(p.message)}</li>
      ))}
    </ul>
  );
}
