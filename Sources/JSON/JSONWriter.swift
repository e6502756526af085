/// Writes a `JSONValue` as UTF-8: object keys sorted by their UTF-8 bytes, so the same value is
/// always the same bytes; pretty-printed as Foundation's encoder does (two spaces, `"key" : value`)
/// or compact. Every string is escaped as RFC 8259 requires, plus DEL and the two Unicode line
/// separators, so no written file can break a line where a reader does not expect it.
public enum JSONWriter {
    public static func write(_ value: JSONValue, pretty: Bool) -> [UInt8] {
        var out: [UInt8] = []
        write(value, pretty: pretty, indent: 0, into: &out)
        return out
    }

    private static func write(_ value: JSONValue, pretty: Bool, indent: Int, into out: inout [UInt8]) {
        switch value {
        case .null: out.append(contentsOf: Array("null".utf8))
        case .bool(let flag): out.append(contentsOf: Array((flag ? "true" : "false").utf8))
        case .number(let literal): out.append(contentsOf: Array(literal.utf8))
        case .string(let text): quote(text, into: &out)
        case .array(let items):
            out.append(UInt8(ascii: "["))
            for (index, item) in items.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                newline(pretty, indent + 1, into: &out)
                write(item, pretty: pretty, indent: indent + 1, into: &out)
            }
            if !items.isEmpty { newline(pretty, indent, into: &out) }
            out.append(UInt8(ascii: "]"))
        case .object(let fields):
            out.append(UInt8(ascii: "{"))
            let keys = fields.keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
            for (index, key) in keys.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                newline(pretty, indent + 1, into: &out)
                quote(key, into: &out)
                out.append(contentsOf: pretty ? Array(" : ".utf8) : [UInt8(ascii: ":")])
                write(fields[key]!, pretty: pretty, indent: indent + 1, into: &out)
            }
            if !keys.isEmpty { newline(pretty, indent, into: &out) }
            out.append(UInt8(ascii: "}"))
        }
    }

    private static func newline(_ pretty: Bool, _ indent: Int, into out: inout [UInt8]) {
        guard pretty else { return }
        out.append(0x0a)
        out.append(contentsOf: repeatElement(UInt8(ascii: " "), count: 2 * indent))
    }

    private static func quote(_ text: String, into out: inout [UInt8]) {
        let hex = Array("0123456789abcdef".utf8)
        out.append(UInt8(ascii: "\""))
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\"")])
            case "\\": out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\\")])
            case "\n": out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "n")])
            case "\r": out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "r")])
            case "\t": out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "t")])
            case _ where scalar.value < 0x20 || scalar.value == 0x7F || scalar.value == 0x2028 || scalar.value == 0x2029:
                out.append(contentsOf: Array("\\u".utf8))
                for shift in stride(from: 12, through: 0, by: -4) { out.append(hex[Int(scalar.value >> UInt32(shift) & 0xf)]) }
            default: UTF8.encode(scalar) { out.append($0) }
            }
        }
        out.append(UInt8(ascii: "\""))
    }
}
