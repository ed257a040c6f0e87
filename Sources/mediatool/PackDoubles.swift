import ArgumentParser
struct PackDoubles: ParsableCommand {}
