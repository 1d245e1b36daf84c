//! Printed output: sheets, cards, compact and phone layouts, fonts and
//! scripts, the 6 pt floor, PDF and SVG read back.

mod render;
mod render_boxes;
mod render_compact;
mod render_floor;
mod render_fonts;
mod render_phone;
mod render_print;
mod render_scripts;
mod render_shapes;
mod render_svg_writer;
mod zone_names;

mod slow;
