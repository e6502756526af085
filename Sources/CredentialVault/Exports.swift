// The facade's API is made of the tracks' record types and Sodium's guarded bytes; re-export
// them so a client imports `CredentialVault` alone.
@_exported import ConfigTrack
@_exported import struct Replication.RecordVersion
@_exported import enum SecretTrack.Availability
@_exported import enum SecretTrack.SecretBackend
@_exported import struct SecretTrack.SecretConflict
@_exported import struct SecretTrack.SecretItem
@_exported import class Sodium.SecretBytes
@_exported import struct Sodium.KDFParameters
@_exported import enum Sodium.Base64
@_exported import struct Replication.QuarantineEntry
@_exported import struct Replication.CompactionPolicy
@_exported import struct Membership.RecoveryKey
