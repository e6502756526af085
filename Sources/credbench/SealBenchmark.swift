import Sodium

/// Seal/open throughput of `SealedBox` against the bare libsodium calls it wraps.
///
/// Both sides do the same cryptographic work — a fresh random nonce per seal, the same key, and
/// associated data of the same length as SealedBox builds (header, purpose label, zero byte,
/// context) — so the ratio isolates the wrapper's own cost: framing checks, array
/// concatenations, and opening into freshly `sodium_malloc`ed guarded memory.
///
/// Each case runs `rounds` times, interleaved, and the fastest round is kept: on a shared VM the
/// slow rounds measure the neighbours, not the code.
struct SealBenchmark {
    static let rounds = 3
    static let payloadSizes = [32, 1_024, 65_536]
    static let purpose = SealPurpose(tag: 0x7F, label: "credbench/v1/payload")
    static let context = Array("host.00000000-0000-0000-0000-000000000000.password\u{0}1\u{0}42\u{0}device".utf8)

    func run() throws -> [SealResult] {
        RawAEAD.initialize()
        let key = try SecretBytes.random(count: SealedBox.keyCount)
        return try Self.payloadSizes.map { payloadBytes in
            let rounds = try (0..<Self.rounds).map { _ in try measure(payloadBytes: payloadBytes, key: key) }
            func best(_ rate: (SealResult) -> SealResult.Rate) -> SealResult.Rate {
                rounds.map(rate).max { $0.opsPerSecond < $1.opsPerSecond }!
            }
            return SealResult(payloadBytes: payloadBytes, sealedBoxSeal: best(\.sealedBoxSeal), sealedBoxOpen: best(\.sealedBoxOpen),
                              rawEncrypt: best(\.rawEncrypt), rawDecrypt: best(\.rawDecrypt))
        }
    }

    /// Enough operations for a fraction of a second per round at a few hundred MB/s, never fewer
    /// than 2,000 (so small payloads are timed over many calls).
    static func operations(for payloadBytes: Int) -> Int {
        Swift.max(2_000, Swift.min(50_000, (128 << 20) / payloadBytes))
    }

    private func measure(payloadBytes: Int, key: SecretBytes) throws -> SealResult {
        let count = Self.operations(for: payloadBytes)
        let plain = try SecretBytes(copying: Random.bytes(count: payloadBytes))

        // Warm up, and keep one blob to open repeatedly.
        var blob: [UInt8] = []
        for _ in 0..<100 { blob = try SealedBox.seal(plain, key: key, purpose: Self.purpose, context: Self.context) }

        var start = MonotonicClock.now()
        for _ in 0..<count { blob = try SealedBox.seal(plain, key: key, purpose: Self.purpose, context: Self.context) }
        let seal = SealResult.Rate(operations: count, payloadBytes: payloadBytes, seconds: MonotonicClock.seconds(since: start))

        var opened = 0
        start = MonotonicClock.now()
        for _ in 0..<count { opened &+= try SealedBox.open(blob, key: key, purpose: Self.purpose, context: Self.context).count }
        let open = SealResult.Rate(operations: count, payloadBytes: payloadBytes, seconds: MonotonicClock.seconds(since: start))
        guard opened == count * payloadBytes else { throw BenchError("SealedBox.open returned the wrong length.") }

        let (encrypt, decrypt) = try measureRaw(payloadBytes: payloadBytes, count: count, key: key, plain: plain)
        return SealResult(payloadBytes: payloadBytes, sealedBoxSeal: seal, sealedBoxOpen: open, rawEncrypt: encrypt, rawDecrypt: decrypt)
    }

    private func measureRaw(payloadBytes: Int, count: Int, key: SecretBytes, plain: SecretBytes) throws -> (SealResult.Rate, SealResult.Rate) {
        let rawKey = key.withUnsafeBytes { Array($0) }
        let rawPlain = plain.withUnsafeBytes { Array($0) }
        // Same length as SealedBox's associated data: 4-byte header, label, zero byte, context.
        let associatedData = [UInt8](repeating: 0x43, count: 4) + Array(Self.purpose.label.utf8) + [0] + Self.context
        var nonce = [UInt8](repeating: 0, count: RawAEAD.nonceCount)
        var cipher = [UInt8](repeating: 0, count: payloadBytes + RawAEAD.tagCount)
        var output = [UInt8](repeating: 0, count: payloadBytes)

        var start = MonotonicClock.now()
        for _ in 0..<count {
            RawAEAD.randomize(&nonce)
            RawAEAD.encrypt(&cipher, rawPlain, associatedData: associatedData, nonce: nonce, key: rawKey)
        }
        let encrypt = SealResult.Rate(operations: count, payloadBytes: payloadBytes, seconds: MonotonicClock.seconds(since: start))

        var failures = 0
        start = MonotonicClock.now()
        for _ in 0..<count {
            if !RawAEAD.decrypt(&output, cipher, associatedData: associatedData, nonce: nonce, key: rawKey) { failures += 1 }
        }
        let decrypt = SealResult.Rate(operations: count, payloadBytes: payloadBytes, seconds: MonotonicClock.seconds(since: start))
        guard failures == 0, output == rawPlain else { throw BenchError("Raw XChaCha20-Poly1305 round trip failed.") }
        return (encrypt, decrypt)
    }
}
