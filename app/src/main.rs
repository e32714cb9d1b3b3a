fn main() {
    loom_app::start();
}
