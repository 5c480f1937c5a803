export { createClient } from './client.js';
export type { ClientOptions, FieldAssistClient, UntypedTables } from './client.js';
export {
  FieldAssistAIError,
  FieldAssistAuthError,
  FieldAssistDataError,
  FieldAssistError,
  FieldAssistNetworkError,
  FieldAssistNotificationsError,
  FieldAssistRealtimeError,
  FieldAssistStorageError,
  FieldAssistValidationError,
  isFieldAssistError,
} from './errors.js';
export type { FieldAssistErrorInit } from './errors.js';
export { AUTH_ERROR_MESSAGES, GENERIC_AUTH_MESSAGE } from './auth/error-codes.js';
export type { AuthErrorCode } from './auth/error-codes.js';
export type { AuthClient } from './auth/auth-client.js';
export type {
  AiClient,
  AiContentPart,
  AiMessage,
  AiUsage,
  ChatHandlers,
  ChatRequest,
  ChatResponse,
  ChatPhoto,
  ImageGenerationOptions,
  ImageGenerationResponse,
  ImageModificationOptions,
  ObjectGenerationOptions,
  ObjectGenerationResponse,
  SpeechFormat,
  SpeechGenerationOptions,
  SpeechGenerationResponse,
  TextGenerationOptions,
  TextGenerationResponse,
  TranscriptionOptions,
  TranscriptionResponse,
} from './ai/types.js';
export type {
  AuthOptions,
  AuthProvider,
  AuthState,
  AuthStateListener,
  AuthUser,
  RedirectOptions,
  RoleConfig,
  RoleDefinition,
  SignUpData,
  StorageLike,
  TokenSet,
} from './auth/types.js';
export type { DataClient, ExtractOptions } from './data/types.js';
export type { ManualsClient, SaveManualInput } from './manuals/types.js';
export type { ChatSource, ChatSuggestion } from '@fieldassist/client/chat-sources';
export type { Manual, ManualMetadata, ProcessingStatus, UploadedManualFile } from '@fieldassist/client/manuals';
export type { PresenceUser, RealtimeMessage } from '@fieldassist/client/realtime-frames';
export type {
  DownloadOptions,
  DownloadResult,
  StorageClient,
  UploadOptions,
  UploadResult,
  UploadSource,
} from './storage/types.js';
export type {
  RealtimeChannel,
  RealtimeClient,
  RealtimeState,
  WebSocketFactory,
  WebSocketLike,
} from './realtime/types.js';
export { camelToSnake, snakeToCamel } from './case.js';
export { photoOf } from './ai/chat.js';
export type { AccessTokenGetter, FetchLike } from './http.js';
export type {
  BatchResult,
  BatchStatement,
  DbClient,
  FieldCondition,
  FilterValue,
  ListOptions,
  Operators,
  OrderBy,
  Row,
  RowInput,
  SortDirection,
  SqlResult,
  TableClient,
  UpsertOptions,
  Where,
  WriteOptions,
} from './db/types.js';
export type {
  AnalyticsClient,
  AnalyticsEvent,
  AnalyticsOptions,
  AnalyticsStorage,
  AnalyticsTimers,
  AnalyticsWindow,
} from './analytics/types.js';
export type { Channel } from './analytics/channel.js';
