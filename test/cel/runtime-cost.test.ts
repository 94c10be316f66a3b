/**
 * Runtime costs against the numbers apiextensions-apiserver's TestCelCostStability pins for the
 * same schemas, data and rules (every rule there evaluates to true).
 */
import { describe, expect, it } from 'vitest';
import {
  booleanType,
  byteType,
  compileOk,
  dateFormat,
  dateTimeFormat,
  durationFormat,
  int32Type,
  int64Type,
  integerType,
  listMapType,
  listSetType,
  listType,
  mapType,
  numberType,
  objectType,
  objs,
  schemas,
  stringType,
  valsEqualThemselvesAndDataLiteral as veq,
} from './helpers.js';
import type { CelSchema } from '../../src/cel/index.js';

interface Case {
  readonly name: string;
  readonly schema: CelSchema;
  readonly obj: unknown;
  readonly costs: Record<string, number>;
}

const cases: Case[] = [
  {
    name: 'integers',
    schema: schemas(integerType, integerType, int32Type, int32Type, int64Type, int64Type),
    obj: objs(2 ** 52, 2 ** 52, 2147483647, 2147483647, 2 ** 52, 2 ** 52),
    costs: {
      [veq('self.val1', 'self.val2', String(2 ** 52))]: 11,
      'self.val1 == self.val6': 5,
      'type(self.val1) == int': 4,
      'self.val3 + 1 == 2147483647 + 1': 5,
    },
  },
  {
    name: 'numbers',
    schema: schemas(numberType, numberType, numberType, numberType, numberType, numberType, numberType),
    obj: objs(1.5, 1.5, 1.5, 1.5, 1.5, 1.5, 1),
    costs: { 'self.val1 == self.val6': 5, 'type(self.val1) == double': 4, 'type(self.val7) == double': 4, 'self.val7 == 1.0': 3 },
  },
  {
    name: 'numeric comparisons',
    schema: schemas(integerType, numberType),
    obj: objs(5, 10.5),
    costs: { 'double(self.val1) < self.val2': 6, 'self.val1 < int(self.val2)': 6, 'double(5) < 10.0': 1, '5 < int(10.0)': 1, 'double(self.val1) < 10.0': 4 },
  },
  {
    name: 'unicode strings',
    schema: schemas(stringType, stringType),
    obj: objs('Rook takes 👑', 'Rook takes 👑'),
    costs: {
      [veq('self.val1', 'self.val2', "'Rook takes 👑'")]: 14,
      "self.val1.startsWith('Rook')": 4,
      "!self.val1.startsWith('knight')": 5,
      "self.val1.matches('^[^0-9]*$')": 8,
      "!self.val1.matches('^[0-9]*$')": 7,
      'type(self.val1) == string': 4,
      'size(self.val1) == 12': 4,
      "self.val1.charAt(3) == 'k'": 4,
      "self.val1.indexOf('o') == 1": 4,
      "self.val1.indexOf('o', 2) == 2": 4,
      "self.val1.replace(' ', 'x') == 'Rookxtakesx👑'": 7,
      "self.val1.replace(' ', 'x', 1) == 'Rookxtakes 👑'": 7,
      "self.val1.split(' ') == ['Rook', 'takes', '👑']": 6,
      "self.val1.split(' ', 2) == ['Rook', 'takes 👑']": 6,
      "self.val1.substring(5) == 'takes 👑'": 5,
      "self.val1.substring(0, 4) == 'Rook'": 5,
      "self.val1.substring(4, 10).trim() == 'takes'": 6,
      "self.val1.upperAscii() == 'ROOK TAKES 👑'": 6,
      "self.val1.lowerAscii() == 'rook takes 👑'": 6,
    },
  },
  {
    name: 'bytes',
    schema: schemas(byteType, byteType),
    obj: objs('QUI=', 'QUI='),
    costs: { 'self.val1 == self.val2': 5, "self.val1 == b'AB'": 3, 'type(self.val1) == bytes': 4, 'size(self.val1) == 2': 4 },
  },
  {
    name: 'booleans',
    schema: schemas(booleanType, booleanType, booleanType, booleanType),
    obj: objs(true, true, false, false),
    costs: { [veq('self.val1', 'self.val2', 'true')]: 11, 'self.val1 != self.val4': 5, 'type(self.val1) == bool': 4 },
  },
  {
    name: 'duration format',
    schema: schemas(durationFormat, durationFormat),
    obj: objs('1h2m3s4ms', '1h2m3s4ms'),
    costs: {
      [veq('self.val1', 'self.val2', "duration('1h2m3s4ms')")]: 11,
      "self.val1 == duration('1h2m') + duration('3s4ms')": 4,
      'self.val1.getHours() == 1': 4,
      'type(self.val1) == google.protobuf.Duration': 4,
    },
  },
  {
    name: 'date format',
    schema: schemas(dateFormat, dateFormat),
    obj: objs('1997-07-16', '1997-07-16'),
    costs: {
      [veq('self.val1', 'self.val2', "timestamp('1997-07-16T00:00:00.000Z')")]: 11,
      'self.val1.getDate() == 16': 4,
      'type(self.val1) == google.protobuf.Timestamp': 4,
    },
  },
  {
    name: 'date-time format',
    schema: schemas(dateTimeFormat, dateTimeFormat),
    obj: objs('2011-08-18T19:03:37.010000000+01:00', '2011-08-18T19:03:37.010000000+01:00'),
    costs: {
      [veq('self.val1', 'self.val2', "timestamp('2011-08-18T19:03:37.010+01:00')")]: 11,
      "self.val1 == timestamp('2011-08-18T00:00:00.000+01:00') + duration('19h3m37s10ms')": 4,
      "self.val1.getDate('01:00') == 18": 4,
      'type(self.val1) == google.protobuf.Timestamp': 4,
    },
  },
  {
    name: 'enums',
    schema: objectType({ enumStr: { type: 'string', enum: ['Pending', 'Available', 'Bound', 'Released', 'Failed'] } }),
    obj: { enumStr: 'Pending' },
    costs: { "self.enumStr == 'Pending'": 3, "self.enumStr in ['Pending', 'Available']": 2 },
  },
  {
    name: 'lists',
    schema: schemas(listType(integerType), listType(integerType)),
    obj: objs([1, 2, 3], [1, 2, 3]),
    costs: {
      [veq('self.val1', 'self.val2', '[1, 2, 3]')]: 11,
      '1 in self.val1': 5,
      'self.val2[0] in self.val1': 8,
      '!(0 in self.val1)': 6,
      'self.val1 + self.val2 == [1, 2, 3, 1, 2, 3]': 6,
      'self.val1 + [4, 5] == [1, 2, 3, 4, 5]': 4,
    },
  },
  {
    name: 'listSets',
    schema: schemas(listSetType(stringType), listSetType(stringType)),
    obj: objs(['a', 'b', 'c'], ['a', 'c', 'b']),
    costs: { "self.val1 == ['c', 'b', 'a']": 3, 'self.val1 == self.val2': 5, "'a' in self.val1": 5, 'self.val2[0] in self.val1': 8, "!('x' in self.val1)": 6 },
  },
  {
    name: 'maps',
    schema: schemas(mapType(stringType), mapType(stringType)),
    obj: objs({ k1: 'a', k2: 'b' }, { k2: 'b', k1: 'a' }),
    costs: { 'self.val1 == self.val2': 5, "'k1' in self.val1": 3, "!('k3' in self.val1)": 4, "self.val1 == {'k1': 'a', 'k2': 'b'}": 3 },
  },
  {
    name: 'objects',
    schema: objectType({ objs: listType(objectType({ f1: stringType, f2: stringType })) }),
    obj: {
      objs: [
        { f1: 'a', f2: 'b' },
        { f1: 'a', f2: 'b' },
      ],
    },
    costs: { 'self.objs[0] == self.objs[1]': 7 },
  },
  {
    name: 'object access',
    schema: objectType({
      a: objectType({ b: integerType, c: integerType, d: { ...integerType, nullable: true } }),
      a1: objectType({ b1: objectType({ c1: integerType }), d2: objectType({ e2: integerType }) }),
    }),
    obj: { a: { b: 1, d: null }, a1: { b1: { c1: 4 } }, a3: {} },
    costs: { 'has(self.a.b)': 2, 'has(self.a1.b1.c1)': 3, '!(has(self.a1.d2) && has(self.a1.d2.e2))': 3, '!has(self.a1.d2)': 3 },
  },
  {
    name: 'map access',
    schema: objectType({ val: mapType(integerType) }),
    obj: { val: { b: 1, d: 2 } },
    costs: {
      "!('a' in self.val)": 4,
      "'b' in self.val": 3,
      '!has(self.val.a)': 3,
      'has(self.val.b)': 2,
      'self.val.all(k, self.val[k] > 0)': 17,
      'self.val.exists_one(k, self.val[k] == 2)': 14,
      '!self.val.exists_one(k, self.val[k] > 0)': 17,
      'size(self.val) == 2': 4,
      'size(self.val.filter(k, self.val[k] > 1)) == 1': 26,
    },
  },
  {
    name: 'listMap access',
    schema: objectType({ listMap: listMapType(['k'], objectType({ k: stringType, v: stringType, v2: stringType })) }),
    obj: {
      listMap: [
        { k: 'a1', v: 'b1' },
        { k: 'a2', v: 'b2' },
        { k: 'a3', v: 'b3', v2: 'z' },
      ],
    },
    costs: {
      'has(self.listMap[0].v)': 3,
      "self.listMap.all(m, m.k.startsWith('a'))": 21,
      "self.listMap.all(m, !has(m.v2) || m.v2 == 'z')": 21,
      "self.listMap.exists(m, m.k.endsWith('1'))": 13,
      "self.listMap.exists_one(m, m.k == 'a3')": 15,
      "!self.listMap.all(m, m.k.endsWith('1'))": 18,
      "!self.listMap.exists(m, m.v == 'x')": 25,
      "!self.listMap.exists_one(m, m.k.startsWith('a'))": 20,
      "size(self.listMap.filter(m, m.k == 'a1')) == 1": 27,
      "self.listMap.exists(m, m.k == 'a1' && m.v == 'b1')": 16,
      "self.listMap.map(m, m.v).exists(v, v == 'b1')": 55,
    },
  },
];

describe('runtime cost (apiextensions TestCelCostStability)', () => {
  for (const c of cases) {
    describe(c.name, () => {
      for (const [rule, cost] of Object.entries(c.costs)) {
        it(`${rule} costs ${cost}`, () => {
          const r = compileOk(c.schema, rule).program!.evaluate(c.obj);
          expect(r.ok && r.value).toBe(true);
          expect(r.cost).toBe(cost);
        });
      }
    });
  }
  it('does not charge a constant list for `in`, nor a type name', () => {
    expect(compileOk(schemas(stringType), "self.val1 in ['a', 'b']").program!.evaluate(objs('a')).cost).toBe(2);
  });
});
