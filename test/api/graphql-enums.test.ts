// GraphQL enums are the zod schemas' own values: introspection shows them on the fields that
// were plain strings, and a value the schema does not know is refused before any resolver runs.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CODE_TYPES, ERROR_CORRECTION_LEVELS, EYE_STYLES, FRAMES, STYLES } from '../../src/modules/codes/schemas.ts';
import { DAYS, DEVICES, RULE_TYPES } from '../../src/modules/routing/conditions.ts';
import { getTestApp, type TestApp } from '../support/app.ts';
import { createCode } from '../support/factories.ts';

let app: TestApp;
let key: string;

beforeAll(async () => {
  app = await getTestApp();
  key = await app.newAccountKey();
});
afterAll(() => app.close());

const ENUMS: [name: string, values: readonly string[]][] = [
  ['CodeType', CODE_TYPES],
  ['QrStyle', STYLES],
  ['ErrorCorrection', ERROR_CORRECTION_LEVELS],
  ['EyeStyle', EYE_STYLES],
  ['Frame', FRAMES],
  ['GradientType', ['linear', 'radial']],
  ['RoutingRuleType', RULE_TYPES],
  ['Device', DEVICES],
  ['Weekday', DAYS],
];

/** The named type of a field (or input field), through NON_NULL and LIST wrappers. */
type TypeRef = { kind: string; name: string | null; ofType: TypeRef | null };
const named = (type: TypeRef): TypeRef => (type.ofType ? named(type.ofType) : type);

async function typeOf(name: string) {
  const res = await app.graphql(
    key,
    `query($name: String!) { __type(name: $name) { kind enumValues { name } fields { name type { kind name ofType { ` +
      `kind name ofType { kind name ofType { kind name } } } } } inputFields { name type { kind name ofType { kind ` +
      `name ofType { kind name ofType { kind name } } } } } } }`,
    { name },
  );
  expect(res.body.errors).toBeUndefined();
  return res.body.data.__type as {
    kind: string;
    enumValues: { name: string }[] | null;
    fields: { name: string; type: TypeRef }[] | null;
    inputFields: { name: string; type: TypeRef }[] | null;
  };
}

describe('enums derived from the zod schemas', () => {
  it.each(ENUMS)('%s lists exactly the schema’s values', async (name, values) => {
    const type = await typeOf(name);
    expect(type.kind).toBe('ENUM');
    expect(type.enumValues!.map((v) => v.name).sort()).toEqual([...values].sort());
  });

  it('types the fields that were strings with those enums, on output and input alike', async () => {
    const expected: [typeName: string, field: string, enumName: string][] = [
      ['Code', 'type', 'CodeType'],
      ['CodeDesign', 'style', 'QrStyle'],
      ['CodeDesign', 'errorCorrection', 'ErrorCorrection'],
      ['CodeDesign', 'eyeStyle', 'EyeStyle'],
      ['CodeDesign', 'frame', 'Frame'],
      ['Gradient', 'type', 'GradientType'],
      ['RoutingRule', 'type', 'RoutingRuleType'],
      ['RuleConditions', 'devices', 'Device'],
      ['RuleConditions', 'days', 'Weekday'],
      ['CreateCodeInput', 'type', 'CodeType'],
      ['CodeFilter', 'type', 'CodeType'],
      ['CodeDesignInput', 'style', 'QrStyle'],
      ['CodeDesignInput', 'errorCorrection', 'ErrorCorrection'],
      ['CodeDesignInput', 'eyeStyle', 'EyeStyle'],
      ['CodeDesignInput', 'frame', 'Frame'],
      ['GradientInput', 'type', 'GradientType'],
      ['RoutingRuleInput', 'type', 'RoutingRuleType'],
      ['RuleConditionsInput', 'devices', 'Device'],
      ['RuleConditionsInput', 'days', 'Weekday'],
    ];
    for (const [typeName, field, enumName] of expected) {
      const type = await typeOf(typeName);
      const found = [...(type.fields ?? []), ...(type.inputFields ?? [])].find((f) => f.name === field);
      expect(found, `${typeName}.${field}`).toBeDefined();
      expect(named(found!.type), `${typeName}.${field}`).toEqual({ kind: 'ENUM', name: enumName, ofType: null });
    }
  });

  it('accepts the values as variables and as enum literals, and answers them as read', async () => {
    const byVariable = await app.graphql(
      key,
      'mutation($input: CreateCodeInput!) { createCode(input: $input) { type design { style errorCorrection ' +
        'eyeStyle frame frameText gradient { type } } } }',
      {
        input: {
          type: 'url',
          content: 'https://enum.example/v',
          design: {
            style: 'dots',
            errorCorrection: 'Q',
            eyeStyle: 'circle',
            frame: 'banner',
            frameText: 'Scan',
            gradient: { type: 'linear', from: '#000000', to: '#1d4ed8' },
          },
        },
      },
    );
    expect(byVariable.body.errors).toBeUndefined();
    expect(byVariable.body.data.createCode).toEqual({
      type: 'url',
      design: {
        style: 'dots',
        errorCorrection: 'Q',
        eyeStyle: 'circle',
        frame: 'banner',
        frameText: 'Scan',
        gradient: { type: 'linear' },
      },
    });

    const byLiteral = await app.graphql(
      key,
      'mutation { createCode(input: { type: text, content: { text: "hi" }, design: { style: rounded, ' +
        'errorCorrection: H } }) { type design { style errorCorrection } } }',
    );
    expect(byLiteral.body.errors).toBeUndefined();
    expect(byLiteral.body.data.createCode).toEqual({
      type: 'text',
      design: { style: 'rounded', errorCorrection: 'H' },
    });
  });

  it('refuses an unknown value with an error naming the value and the enum, creating nothing', async () => {
    const own = await app.newAccountKey();
    const variable = await app.graphql(own, 'mutation($input: CreateCodeInput!) { createCode(input: $input) { id } }', {
      input: { content: 'https://enum.example/x', design: { style: 'zigzag' } },
    });
    expect(variable.body.data ?? null).toBeNull();
    expect(variable.body.errors).toHaveLength(1);
    expect(variable.body.errors[0].message).toContain('"zigzag"');
    expect(variable.body.errors[0].message).toContain('QrStyle');

    const literal = await app.graphql(
      own,
      'mutation { createCode(input: { content: "https://enum.example/y", design: { errorCorrection: X } }) { id } }',
    );
    expect(literal.body.data ?? null).toBeNull();
    expect(literal.body.errors[0].message).toContain('X');
    expect(literal.body.errors[0].message).toContain('ErrorCorrection');

    // A string literal is not an enum literal either.
    const quoted = await app.graphql(
      own,
      'mutation { createCode(input: { type: "url", content: "https://enum.example/z" }) { id } }',
    );
    expect(quoted.body.data ?? null).toBeNull();
    expect(quoted.body.errors[0].message).toContain('CodeType');

    const listed = await app.request('GET', '/v1/codes', { key: own });
    expect(listed.body.data).toEqual([]);
  });

  it('refuses an unknown device in a routing rule, and reads known ones back as enum values', async () => {
    const code = await createCode(app, key);
    const bad = await app.graphql(
      key,
      'mutation($id: ID!) { addRoutingRule(codeId: $id, input: { type: device, conditions: { devices: [toaster] }, ' +
        'destination: "https://enum.example/d" }) { ruleId } }',
      { id: code.id },
    );
    expect(bad.body.errors[0].message).toContain('toaster');
    expect(bad.body.errors[0].message).toContain('Device');

    const good = await app.graphql(
      key,
      'mutation($id: ID!) { addRoutingRule(codeId: $id, input: { type: device, conditions: { devices: [ios, ' +
        'tablet], days: [mon] }, destination: "https://enum.example/d" }) { type conditions { devices days } } }',
      { id: code.id },
    );
    expect(good.body.errors).toBeUndefined();
    expect(good.body.data.addRoutingRule).toEqual({
      type: 'device',
      conditions: { devices: ['ios', 'tablet'], days: ['mon'] },
    });
  });
});
