/// A failure that ends the benchmark with a message (bad arguments, an unexpected result).
///
/// The benchmark checks what it measures (a resolved password has the stored length, a missing
/// host is reported as missing) so a fast but wrong code path can never pass as a good number.
struct BenchError: Error, CustomStringConvertible {
    let description: String

    init(_ description: String) {
        self.description = description
    }
}
