// A JSON Schema check for the subset of draft 2020-12 that msgspec writes (docs/schema/*.json):
// $ref into $defs, anyOf, type, enum, properties/required/additionalProperties, items,
// prefixItems, minItems/maxItems, minLength/maxLength, pattern, minimum/maximum. Any other
// keyword is refused, so a schema that starts using one fails here instead of passing unchecked.
import { readFileSync } from "node:fs";

export const SCHEMAS = new URL("../../docs/schema/", import.meta.url);

/** The schema in docs/schema/<name>.schema.json. */
export function load(name) {
  return JSON.parse(readFileSync(new URL(`${name}.schema.json`, SCHEMAS), "utf8"));
}

const KNOWN = new Set([
  "$schema", "$defs", "$ref", "title", "description", "default", "discriminator", "anyOf", "type",
  "enum", "properties", "required", "additionalProperties", "items", "prefixItems", "minItems",
  "maxItems", "minLength", "maxLength", "pattern", "minimum", "maximum",
]);

function typeOf(value) {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  if (typeof value === "number") return Number.isInteger(value) ? "integer" : "number";
  return typeof value;
}

/** The problems of `value` against `schema` (the root, for its $defs); [] when it fits. */
export function problems(root, value, schema = root, at = "$") {
  for (const key of Object.keys(schema)) {
    if (!KNOWN.has(key)) return [`${at}: the schema uses ${key}, which this check does not know`];
  }
  if (schema.$ref) {
    const name = schema.$ref.replace("#/$defs/", "");
    if (!root.$defs || !root.$defs[name]) return [`${at}: no definition ${schema.$ref}`];
    return problems(root, value, root.$defs[name], at);
  }
  if (schema.anyOf) {
    const each = schema.anyOf.map((s) => problems(root, value, s, at));
    if (each.some((p) => p.length === 0)) return [];
    if (schema.discriminator && typeOf(value) === "object") {
      const ref = schema.discriminator.mapping[value[schema.discriminator.propertyName]];
      if (ref) return problems(root, value, { $ref: ref }, at);
    }
    return [`${at}: fits none of ${schema.anyOf.length} choices (${each.map((p) => p[0]).join("; ")})`];
  }
  const kind = typeOf(value);
  if (schema.type && !(schema.type === kind || (schema.type === "number" && kind === "integer"))) {
    return [`${at}: expected ${schema.type}, got ${kind}`];
  }
  if (schema.enum && !schema.enum.some((v) => v === value)) {
    return [`${at}: ${JSON.stringify(value)} is not one of ${JSON.stringify(schema.enum)}`];
  }
  const out = [];
  if (kind === "object" && (schema.properties || schema.required)) {
    const props = schema.properties || {};
    for (const key of schema.required || []) if (!(key in value)) out.push(`${at}: ${key} is missing`);
    for (const [key, item] of Object.entries(value)) {
      if (props[key]) out.push(...problems(root, item, props[key], `${at}.${key}`));
      else if (schema.additionalProperties === false) out.push(`${at}: ${key} is not in the protocol`);
    }
  }
  if (kind === "array") {
    if (schema.minItems !== undefined && value.length < schema.minItems) out.push(`${at}: too short`);
    if (schema.maxItems !== undefined && value.length > schema.maxItems) out.push(`${at}: too long`);
    const first = schema.prefixItems || [];
    value.forEach((item, i) => {
      const each = i < first.length ? first[i] : schema.items;
      if (each) out.push(...problems(root, item, each, `${at}[${i}]`));
    });
  }
  if (kind === "string") {
    if (schema.minLength !== undefined && [...value].length < schema.minLength) out.push(`${at}: too short`);
    if (schema.maxLength !== undefined && [...value].length > schema.maxLength) out.push(`${at}: too long`);
    if (schema.pattern && !new RegExp(schema.pattern, "u").test(value)) out.push(`${at}: does not match ${schema.pattern}`);
  }
  if (kind === "integer" || kind === "number") {
    if (schema.minimum !== undefined && value < schema.minimum) out.push(`${at}: below ${schema.minimum}`);
    if (schema.maximum !== undefined && value > schema.maximum) out.push(`${at}: above ${schema.maximum}`);
  }
  return out;
}
