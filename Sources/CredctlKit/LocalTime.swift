import Glibc

/// Times as people read them where they are: ISO 8601 in the local time zone, with its offset
/// (`2026-12-02T07:15:03+01:00`), so no one has to convert from UTC or a Unix count.
enum LocalTime {
    static func iso(_ seconds: Int64) -> String {
        var value = time_t(seconds)
        var parts = tm()
        localtime_r(&value, &parts)
        func two(_ number: Int) -> String { number < 10 ? "0\(number)" : "\(number)" }
        let offset = parts.tm_gmtoff / 60
        let zone = (offset < 0 ? "-" : "+") + two(abs(offset) / 60) + ":" + two(abs(offset) % 60)
        return "\(parts.tm_year + 1900)-\(two(Int(parts.tm_mon) + 1))-\(two(Int(parts.tm_mday)))T\(two(Int(parts.tm_hour))):\(two(Int(parts.tm_min))):\(two(Int(parts.tm_sec)))\(zone)"
    }
}
