//! Round steps between the ticks of an axis, and the decimals their labels
//! need: shared by the distribution and the forest panels.

/// A step of 1, 2, 2.5 or 5 times a power of ten, at least `raw`.
pub(crate) fn nice_step(raw: f64) -> f64 {
    if !(raw.is_finite() && raw > 0.0) {
        return 1.0;
    }
    let power = 10f64.powf(raw.log10().floor());
    [1.0, 2.0, 2.5, 5.0, 10.0]
        .into_iter()
        .map(|m| m * power)
        .find(|&s| s >= raw * (1.0 - 1e-9))
        .unwrap_or(10.0 * power)
}

/// The fewest decimals that show `step` exactly (at most 6).
pub(crate) fn decimals(step: f64) -> usize {
    (0..6)
        .find(|&d| {
            let scaled = step * 10f64.powi(d as i32);
            (scaled - scaled.round()).abs() < 1e-6
        })
        .unwrap_or(6)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn steps_are_round_numbers() {
        assert_eq!(nice_step(0.4), 0.5);
        assert_eq!(nice_step(1.0), 1.0);
        assert_eq!(nice_step(13.0), 20.0);
        assert_eq!(nice_step(0.0002), 0.0002);
        assert_eq!(nice_step(f64::NAN), 1.0);
        assert_eq!(decimals(2.5), 1);
        assert_eq!(decimals(0.00025), 5);
        assert_eq!(decimals(20.0), 0);
    }
}
