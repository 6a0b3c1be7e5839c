export { createSupervisorClient, type SupervisorClient, type SelfInfo } from "./client.js";
export { createDiscoveryAnnouncer, type DiscoveryAnnouncer, type DiscoveryAnnouncerOptions, type DiscoveryStatus } from "./announcer.js";
export { announcementStore, AnnouncementRecordSchema, type AnnouncementRecord, type AnnouncementStore } from "./announcement-record.js";
export { SupervisorRequestError } from "./errors.js";
