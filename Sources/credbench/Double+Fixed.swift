/// Fixed-point rendering for the table, since `String(format:)` needs full Foundation.
extension Double {
    /// The value rounded to `digits` decimals, e.g. `3.14159.fixed(2)` is `"3.14"`.
    func fixed(_ digits: Int) -> String {
        guard isFinite else { return String(self) }
        var scale = 1.0
        for _ in 0..<digits { scale *= 10 }
        let scaled = (Swift.abs(self) * scale).rounded()
        let sign = self < 0 && scaled > 0 ? "-" : ""
        guard digits > 0 else { return sign + String(Int64(scaled)) }
        let whole = Int64(scaled / scale)
        let fraction = String(Int64(scaled - Double(whole) * scale))
        return sign + String(whole) + "." + String(repeating: "0", count: digits - fraction.count) + fraction
    }
}
