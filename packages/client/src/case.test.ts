import { describe, expect, it } from 'vitest';
import { camelToSnake, keysToCamel, keysToSnake, snakeToCamel } from './case.js';

describe('camelToSnake', () => {
  it('turns every uppercase letter into _ + lowercase, like the published SDK', () => {
    expect(camelToSnake('todoItems')).toBe('todo_items');
    expect(camelToSnake('userID')).toBe('user_i_d');
    expect(camelToSnake('Todos')).toBe('_todos');
    expect(camelToSnake('chatMessages')).toBe('chat_messages');
    expect(camelToSnake('already_snake')).toBe('already_snake');
  });
});

describe('snakeToCamel', () => {
  it('folds _ + lowercase letter and keeps _ + digit', () => {
    expect(snakeToCamel('due_at')).toBe('dueAt');
    expect(snakeToCamel('manual_content_id')).toBe('manualContentId');
    expect(snakeToCamel('_x')).toBe('X');
    expect(snakeToCamel('line_1')).toBe('line_1');
    expect(snakeToCamel('camelCase')).toBe('camelCase');
  });
});

describe('keysToSnake', () => {
  it('converts keys recursively through objects and arrays', () => {
    expect(keysToSnake({ meta: { someKey: 1 }, list: [{ aB: 1 }, 2], userId: 'u' })).toEqual({
      meta: { some_key: 1 },
      list: [{ a_b: 1 }, 2],
      user_id: 'u',
    });
  });

  it('leaves primitives and null alone', () => {
    expect(keysToSnake(null)).toBeNull();
    expect(keysToSnake('aB')).toBe('aB');
    expect(keysToSnake([1, 'x'])).toEqual([1, 'x']);
  });

  it('keeps a Date intact so it is serialised as an ISO string, not {}', () => {
    const at = new Date('2024-05-06T07:08:09.000Z');
    const body = JSON.stringify(keysToSnake({ createdAt: at }));
    expect(body).toBe('{"created_at":"2024-05-06T07:08:09.000Z"}');
  });
});

describe('keysToCamel', () => {
  it('converts keys recursively through objects and arrays', () => {
    expect(keysToCamel([{ user_id: 'u', meta: { some_key: [{ deep_key: 1 }] }, line_1: 2 }])).toEqual([
      { userId: 'u', meta: { someKey: [{ deepKey: 1 }] }, line_1: 2 },
    ]);
  });
});
