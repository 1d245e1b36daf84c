//! Events of many tables, their format studies and ratings.

mod bots;
mod edges;
mod event_study;
mod events;
mod organiser;
mod plain;
mod rating;
mod recover;
