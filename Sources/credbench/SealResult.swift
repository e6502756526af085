/// Seal and open throughput for one payload size: `SealedBox` against bare libsodium.
struct SealResult: Codable {
    /// Throughput of one operation kind: ops/s and payload MB/s (10^6 bytes).
    struct Rate: Codable {
        let operations: Int
        let seconds: Double
        let opsPerSecond: Double
        let megabytesPerSecond: Double

        init(operations: Int, payloadBytes: Int, seconds: Double) {
            self.operations = operations
            self.seconds = seconds
            opsPerSecond = Double(operations) / seconds
            megabytesPerSecond = Double(operations * payloadBytes) / seconds / 1e6
        }
    }

    let payloadBytes: Int
    let sealedBoxSeal: Rate
    let sealedBoxOpen: Rate
    let rawEncrypt: Rate
    let rawDecrypt: Rate
    /// Time per SealedBox operation divided by time per raw libsodium call (1.0 = no overhead).
    let sealOverhead: Double
    let openOverhead: Double

    init(payloadBytes: Int, sealedBoxSeal: Rate, sealedBoxOpen: Rate, rawEncrypt: Rate, rawDecrypt: Rate) {
        self.payloadBytes = payloadBytes
        self.sealedBoxSeal = sealedBoxSeal
        self.sealedBoxOpen = sealedBoxOpen
        self.rawEncrypt = rawEncrypt
        self.rawDecrypt = rawDecrypt
        sealOverhead = rawEncrypt.opsPerSecond / sealedBoxSeal.opsPerSecond
        openOverhead = rawDecrypt.opsPerSecond / sealedBoxOpen.opsPerSecond
    }
}
