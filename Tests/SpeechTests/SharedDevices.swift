import Testing

/// Tests that use the shared virtual speaker and microphone (`speaker`, `micfeed`/`mic`) run
/// one at a time: two of them playing into the same device at once would hear each other.
@Suite("Shared virtual devices", .serialized)
struct SharedDevices {}
