// A tool call's input, checked against the `inputSchema` package.json declares for the tool (the
// schema the model was given), by the validators Ajv compiled from it ahead of time
// (inputValidators.generated.ts, `npm run schemas`). On top: the field names models often use instead
// of ours, named in the message, and the editor's document size limit.
import { MAX_DOCUMENT_BYTES } from '../core/documents';
import { INPUT } from '../core/messages';
import type { OwnToolId } from '../core/toolIds';
import type { ErrorCode } from '../core/types';
import * as generated from './inputValidators.generated';

/** The value, or a message naming the problem in words a model can act on. */
export type Checked<T> = { ok: true; value: T } | { ok: false; message: string; code?: ErrorCode };

/** Names models often use instead of ours (Copilot's own tools, other agents' tools). */
const LOOKALIKES: Record<string, string[]> = {
  filePath: ['path', 'file_path', 'filepath', 'file', 'filename', 'fileName', 'uri'],
  content: ['contents', 'text', 'data', 'new_content', 'newContent', 'file_text', 'code'],
  oldString: ['old_string', 'oldStr', 'old_str', 'old', 'search', 'find', 'oldText'],
  newString: ['new_string', 'newStr', 'new_str', 'new', 'replace', 'replacement', 'newText'],
};

export function lookalikeHint(input: Record<string, unknown>, key: string): string {
  const used = (LOOKALIKES[key] ?? []).find((k) => k in input);
  return used ? INPUT.lookalike(used, key) : '';
}

/** What Ajv reports of one failed check (the part of its `ErrorObject` used here). */
interface SchemaError {
  keyword: string;
  instancePath: string;
  params: Record<string, unknown>;
  message?: string;
}

interface Validator {
  (data: unknown): boolean;
  errors?: SchemaError[] | null;
}

const validators = generated as unknown as Record<OwnToolId, Validator> & { FIELDS: Record<OwnToolId, string[]> };

/**
 * Checks `input` (an object) against the tool's schema. `filePath` is left to the path policy, which
 * has already run. A `null` counts as absent (models send it for optional fields). The first
 * problem is reported, in the schema's order of fields.
 */
export function checkInput<T>(tool: OwnToolId, input: Record<string, unknown>): Checked<T> {
  const validate = validators[tool];
  const present = Object.fromEntries(Object.entries(input).filter(([, v]) => v !== null && v !== undefined));
  const errors = validate(present) ? [] : (validate.errors ?? []);
  for (const key of validators.FIELDS[tool]) {
    if (key === 'filePath') continue;
    const error = errors.find((e) => fieldOf(e) === key);
    if (error) return { ok: false, message: messageOf(error, key, present[key], input) };
    const v = present[key];
    if (typeof v === 'string' && v.length > MAX_DOCUMENT_BYTES) {
      return { ok: false, code: 'too-large', message: INPUT.tooLong(key, v.length, `${MAX_DOCUMENT_BYTES / 1024 / 1024} MiB`) };
    }
  }
  return { ok: true, value: present as T };
}

const fieldOf = (e: SchemaError): string =>
  e.keyword === 'required' ? String((e.params as { missingProperty: string }).missingProperty) : (e.instancePath.split('/')[1] ?? '');

function messageOf(e: SchemaError, key: string, v: unknown, input: Record<string, unknown>): string {
  switch (e.keyword) {
    case 'required':
      return INPUT.missing(key) + lookalikeHint(input, key);
    case 'type': {
      const type = (e.params as { type: string }).type;
      return type === 'string'
        ? INPUT.notString(key, v)
        : type === 'integer'
          ? INPUT.notWholeNumber(key, v)
          : type === 'boolean'
            ? INPUT.notBoolean(key, v)
            : INPUT.other(key, e.message ?? 'is not valid');
    }
    case 'minimum':
      return INPUT.belowMinimum(key, Number((e.params as { limit: number }).limit), v);
    default:
      return INPUT.other(key, e.message ?? 'is not valid');
  }
}
