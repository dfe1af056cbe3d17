// tsc compiles the TypeScript; this copies what n8n reads beside the compiled
// code: node and credential icons, codex files (*.node.json) and __schema__ JSON.
const { src, dest, series } = require('gulp');
const fs = require('fs');

function cleanAssets(done) {
	for (const dir of ['dist/nodes', 'dist/credentials']) {
		if (!fs.existsSync(dir)) fs.mkdirSync(dir, { recursive: true });
	}
	done();
}

function copyAssets() {
	return src(
		[
			'nodes/**/*.{svg,png}',
			'nodes/**/*.node.json',
			'nodes/**/__schema__/**/*.json',
			'credentials/**/*.{svg,png}',
			'icons/**/*.{svg,png}',
		],
		{ base: '.', encoding: false, allowEmpty: true },
	).pipe(dest('dist'));
}

exports.build = series(cleanAssets, copyAssets);
exports.default = exports.build;
