/// Plain-text tables: columns padded to their widest cell, two spaces apart.
enum Table {
    static func render(_ header: [String], _ rows: [[String]]) -> String {
        var widths = header.map(\.count)
        for row in rows { for (index, cell) in row.enumerated() { widths[index] = max(widths[index], cell.count) } }
        func line(_ cells: [String]) -> String {
            var text = ""
            for (index, cell) in cells.enumerated() {
                text += index == cells.count - 1 ? cell : cell + String(repeating: " ", count: widths[index] - cell.count + 2)
            }
            return text
        }
        return ([line(header)] + rows.map(line)).joined(separator: "\n") + "\n"
    }
}
