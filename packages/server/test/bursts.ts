import { expectErrorBody } from '@payframe/contract/testing';
import type { ApiResponse } from './client.ts';

/* Many requests at once, and what their answers add up to: the race tests on either store read them. */

/** Starts every request before awaiting any: the promises are created in one synchronous loop. */
export function concurrently(count: number, send: (index: number) => Promise<ApiResponse>): Promise<ApiResponse[]> {
  const inFlight: Array<Promise<ApiResponse>> = [];
  for (let index = 0; index < count; index++) inFlight.push(send(index));
  return Promise.all(inFlight);
}

export function byStatus(responses: ApiResponse[]): Record<number, ApiResponse[]> {
  const groups: Record<number, ApiResponse[]> = {};
  for (const response of responses) {
    groups[response.status] ??= [];
    groups[response.status]!.push(response);
  }
  return groups;
}

export function summary(responses: ApiResponse[]): string {
  return JSON.stringify(responses.map((response) => [response.status, response.body?.error?.code ?? response.body?.id]));
}

export function codesOf(responses: ApiResponse[]): string[] {
  return responses.map((response) => expectErrorBody(response.body).error.code);
}
