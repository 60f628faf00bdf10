import { describe, expect, test } from 'vitest';
import { describeUspsError, readUspsError } from '../src/usps-api/usps-errors';

describe("USPS's error answers", () => {
  test('the v3 ErrorMessage every spec declares', () => {
    const body = {
      apiVersion: '3.0.0',
      error: {
        code: '400',
        message: 'Bad Request',
        errors: [
          {
            status: '400',
            code: '010001',
            title: 'Invalid ZIP',
            detail: 'ZIPCode is invalid',
            source: { parameter: 'toAddress.ZIPCode' },
          },
        ],
      },
    };
    const error = readUspsError(400, JSON.stringify(body));
    expect(error).toEqual({
      status: 400,
      code: '400',
      message: 'Bad Request',
      errors: [
        {
          status: '400',
          code: '010001',
          title: 'Invalid ZIP',
          detail: 'ZIPCode is invalid',
          parameter: 'toAddress.ZIPCode',
        },
      ],
    });
    expect(describeUspsError(error)).toBe('400: Bad Request (Invalid ZIP: ZIPCode is invalid)');
  });

  test("the token endpoint's OAuth answer (RFC 6749 §5.2) keeps its words", () => {
    const body = '{"error":"invalid_client","error_description":"Client authentication failed."}';
    const error = readUspsError(401, Buffer.from(body));
    expect(error).toEqual({
      status: 401,
      code: 'invalid_client',
      message: 'Client authentication failed.',
      errors: [],
    });
    expect(describeUspsError(error)).toBe('invalid_client: Client authentication failed.');
  });

  test('an answer that is not JSON, or says nothing, is described by its status', () => {
    expect(describeUspsError(readUspsError(502, '<html>'))).toBe('HTTP 502');
    expect(describeUspsError(readUspsError(401, '{}'))).toBe('HTTP 401');
  });
});
