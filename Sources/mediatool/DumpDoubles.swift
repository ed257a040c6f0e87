import ArgumentParser
struct DumpDoubles: ParsableCommand {}
