import Imaging

/// Where a job's memory is reserved: made from the job's own `maxMemory` and the budget its
/// options hold (the run's, where they came from the command line).
public typealias BudgetMaker = (_ maxMemory: Int, _ current: MemoryBudget?) -> MemoryBudget?

extension DecodeLimits {
    /// The same limits, their memory reserved from the budget `make` gives.
    func budgeted(by make: BudgetMaker) -> DecodeLimits {
        var limits = self
        limits.budget = make(maxMemory, budget)
        return limits
    }
}
