export { createSupervisorClient, type SupervisorClient, type SelfInfo, type NetworkInfo, type CoreInfo } from "./client.js";
export { createDiscoveryAnnouncer, type DiscoveryAnnouncer, type DiscoveryAnnouncerOptions, type DiscoveryStatus } from "./announcer.js";
export { announcementStore, AnnouncementRecordSchema, type AnnouncementRecord, type AnnouncementStore } from "./announcement-record.js";
export { SupervisorRequestError } from "./errors.js";
export { createHostAddresses, type HostAddresses, type HostAddressesOptions } from "./host-addresses.js";
