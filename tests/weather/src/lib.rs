//! A library of tools: what it defines, and the server it gives whoever serves them.

use toolwright::prelude::*;

/// How warm it is in a city, by the library's own reckoning.
pub struct Climate {
    /// Degrees Celsius everywhere.
    pub celsius: i64,
}

/// Says the weather in a city.
///
/// # Arguments
///
/// * `city` - Where.
#[mcp_tool(read_only)]
pub fn forecast(climate: State<Climate>, city: String) -> String {
    format!("{} °C in {city}", climate.celsius)
}

/// The weather in a city, as a resource.
#[mcp_resource("forecast://{city}", mime_type = "text/plain")]
pub fn city_forecast(climate: State<Climate>, city: String) -> String {
    format!("{} °C in {city}", climate.celsius)
}

/// Searches the forecasts: a name the program that depends on it uses too.
#[mcp_tool]
pub fn search() -> &'static str {
    "the weather library's search"
}

/// A time of year.
#[derive(Debug, Clone, Copy, serde::Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum Season {
    /// March to May.
    Spring,
    /// June to August.
    Summer,
    /// September to November.
    Autumn,
    /// December to February.
    Winter,
}

/// What to pack for a trip.
///
/// # Arguments
///
/// * `city` - Where to.
/// * `season` - When.
#[mcp_prompt]
pub fn packing(city: String, season: Season) -> String {
    format!("List what to pack for {city} in {season:?}, given its weather then.")
}

/// The library's items (and none of the program's), with the state they need.
pub fn toolset() -> Server {
    Server::new("weather", env!("CARGO_PKG_VERSION"))
        .discover_in(module_path!())
        .state(Climate { celsius: 21 })
}
